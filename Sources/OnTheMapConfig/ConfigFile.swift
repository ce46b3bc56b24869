import Foundation
import TOMLKit

/// The settings file, `$XDG_CONFIG_HOME/onthemap/config.toml` (`~/.config/onthemap/config.toml`
/// when XDG_CONFIG_HOME is unset or not absolute), parsed with TOMLKit. Only what the file says
/// is kept here — text values by key, each with its line — and every problem found; `Settings`
/// weighs it against flags, environment and defaults. A file with a syntax error counts as empty
/// (the app starts on defaults) and reports the line toml++ names.
public struct ConfigFile: Sendable {
    /// One value of the file: its text (booleans as `true`/`false`) and its line.
    public struct Entry: Sendable, Hashable {
        public var text: String
        public var line: Int?
    }

    /// Top-level settings the file may set, and whether each is a boolean.
    public static let knownKeys: [(name: String, isBoolean: Bool)] = [
        ("server", false), ("dialect", false), ("geocoder", false), ("theme", false), ("mouse", true),
        ("ascii", true), ("accessible", true), ("precision", false), ("graphics", false),
    ]

    public let path: String
    /// Whether the file was there at all.
    public let exists: Bool
    public private(set) var values: [String: Entry] = [:]
    /// `[keys]`: action name → key names, in file order.
    public private(set) var keyOverrides: [(action: String, keys: [String], line: Int?)] = []
    public private(set) var problems: [ConfigProblem] = []

    /// The file's path for `environment` (XDG Base Directory rules).
    public static func defaultPath(environment: [String: String]) -> String {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return base + "/onthemap/config.toml"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/onthemap/config.toml"
    }

    /// Reads the file at `path`; a missing file is an empty one, an unreadable one a problem.
    public static func load(path: String) -> ConfigFile {
        guard FileManager.default.fileExists(atPath: path) else { return ConfigFile(path: path, exists: false) }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            var file = ConfigFile(path: path, exists: true)
            file.problems.append(ConfigProblem(path: path, line: nil, message: "cannot be read as UTF-8 text; ignored"))
            return file
        }
        return ConfigFile(parsing: text, path: path)
    }

    init(path: String, exists: Bool) {
        self.path = path
        self.exists = exists
    }

    /// Parses `text` as the file at `path`.
    public init(parsing text: String, path: String) {
        self.init(path: path, exists: true)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            problems.append(
                ConfigProblem(
                    path: path, line: error.source.begin.line,
                    message: "\(error.description) (column \(error.source.begin.column)); the whole file is ignored"))
            return
        } catch {
            problems.append(ConfigProblem(path: path, line: nil, message: "\(error); the whole file is ignored"))
            return
        }
        let lines = ConfigLines(text)
        for (key, value) in table {
            if key == "keys" {
                readKeys(value, lines: lines)
                continue
            }
            let line = lines.line(of: key, in: nil)
            guard let known = Self.knownKeys.first(where: { $0.name == key }) else {
                let names = (Self.knownKeys.map(\.name) + ["[keys]"]).joined(separator: ", ")
                problems.append(ConfigProblem(path: path, line: line, message: "unknown setting \"\(key)\" (known: \(names))"))
                continue
            }
            if known.isBoolean {
                guard let flag = value.bool else {
                    problems.append(problem(line, "\(key) must be true or false"))
                    continue
                }
                values[key] = Entry(text: flag ? "true" : "false", line: line)
            } else {
                guard let string = value.string else {
                    problems.append(problem(line, "\(key) must be a string in quotes"))
                    continue
                }
                values[key] = Entry(text: string, line: line)
            }
        }
    }

    private mutating func readKeys(_ value: any TOMLValueConvertible, lines: ConfigLines) {
        guard let table = value.table else {
            problems.append(problem(lines.line(of: "keys", in: nil), "keys must be a table: [keys] then action = \"key\""))
            return
        }
        var overrides: [(action: String, keys: [String], line: Int?)] = []
        for (action, keys) in table {
            let line = lines.line(of: action, in: "keys")
            if let single = keys.string {
                overrides.append((action, [single], line))
            } else if let array = keys.array, array.allSatisfy({ $0.string != nil }), !array.isEmpty {
                overrides.append((action, array.compactMap(\.string), line))
            } else {
                problems.append(problem(line, "keys.\(action) must be a key name or a list of them, like \"r\" or [\"r\", \"F5\"]"))
            }
        }
        // TOMLKit iterates in its own order; the file's order reads better in `onthemap config`.
        keyOverrides = overrides.sorted { ($0.line ?? .max) < ($1.line ?? .max) }
    }

    private func problem(_ line: Int?, _ message: String) -> ConfigProblem {
        ConfigProblem(path: path, line: line, message: message)
    }

    /// Adds a problem found while applying the file (a value out of range, an unknown action).
    mutating func report(_ problem: ConfigProblem) {
        problems.append(problem)
    }
}
