import MapPicture
import TerminalUI

/// The effective settings of one run and where each came from. Precedence, highest first: flags,
/// environment (`ONTHEMAP_SERVER`, `ONTHEMAP_DIALECT`, `ONTHEMAP_GEOCODER`, `ONTHEMAP_THEME`,
/// `ONTHEMAP_PRECISION`, `ONTHEMAP_GRAPHICS`, `ACCESSIBLE`), the
/// settings file, defaults. A value that is not valid where it was given is reported and skipped,
/// so the next source down decides.
public struct Settings: Sendable {
    public static let dialects = ["v1", "legacy"]
    public static let geocoders = ["offline", "nominatim", "photon"]
    /// How precisely a post may place the student (`Geo.Precision`'s cases).
    public static let precisions = ["city", "exact"]
    /// How the map is drawn where the terminal shows images (`MapPicture.GraphicsDetection`).

    /// nil: the built-in server with a demo class.
    public var server: Sourced<String?>
    public var dialect: Sourced<String>
    public var geocoder: Sourced<String>
    /// `city` (the default: a street-level answer is rounded to about 1 km) or `exact`.
    public var precision: Sourced<String>
    /// `auto` (the default: dark or light for the terminal's background), `dark`, `light` or `mono`.
    public var theme: Sourced<ThemeSetting>
    /// `auto` (the default: a picture where the terminal shows one, Braille inside tmux or
    /// screen), `kitty`, `sixel`, `iterm` or `off`.
    public var graphics: Sourced<GraphicsSetting>
    public var mouse: Sourced<Bool>
    public var ascii: Sourced<Bool>
    /// Accessible mode: the map in words, the cursor on the selection, ASCII frames, nothing only
    /// by colour (`--accessible`, `ACCESSIBLE=1`, `accessible = true`).
    public var accessible: Sourced<Bool>
    /// The key table with the file's `[keys]` applied.
    public var keys: KeyMap
    /// The overrides that were applied, in file order.
    public var keyOverrides: [(action: Action, keys: [Key], source: SettingSource)]
    public var file: ConfigFile
    /// Everything wrong in the file or the environment, one line each (not yet cleaned).
    public var problems: [String]

    /// Weighs `flags`, `environment` and `file`.
    public static func resolve(flags: SettingsFlags, environment: [String: String], file: ConfigFile) -> Settings {
        var file = file
        var problems: [String] = []
        func pick(_ key: String, flag: String?, variable: String?, allowed: (String) -> String?) -> Sourced<String>? {
            if let flag { return Sourced(flag, from: .flag("--\(key)")) }
            if let variable, let text = environment[variable], !text.isEmpty {
                if let complaint = allowed(text) {
                    problems.append("environment \(variable): \(complaint); ignored")
                } else {
                    return Sourced(text, from: .environment(variable))
                }
            }
            if let entry = file.values[key] {
                if let complaint = allowed(entry.text) {
                    file.report(ConfigProblem(path: file.path, line: entry.line, message: complaint + "; ignored"))
                } else {
                    return Sourced(entry.text, from: .file(path: file.path, line: entry.line))
                }
            }
            return nil
        }
        func oneOf(_ key: String, _ choices: [String]) -> (String) -> String? {
            { choices.contains($0) ? nil : "\(key) must be \(Self.list(choices)), not \"\($0)\"" }
        }
        let server = pick("server", flag: flags.server, variable: "ONTHEMAP_SERVER", allowed: serverComplaint)
        let dialect = pick("dialect", flag: flags.dialect, variable: "ONTHEMAP_DIALECT", allowed: oneOf("dialect", dialects))
        let geocoder = pick(
            "geocoder", flag: flags.geocoder, variable: "ONTHEMAP_GEOCODER", allowed: oneOf("geocoder", geocoders))
        let precision = pick(
            "precision", flag: flags.precision, variable: "ONTHEMAP_PRECISION", allowed: oneOf("precision", precisions))
        let theme = pick(
            "theme", flag: flags.theme, variable: "ONTHEMAP_THEME",
            allowed: oneOf("theme", ThemeSetting.allCases.map(\.rawValue)))
        let graphics = pick(
            "graphics", flag: flags.graphics, variable: "ONTHEMAP_GRAPHICS", allowed: oneOf("graphics", GraphicsSetting.allCases.map(\.rawValue)))
        func boolean(_ key: String, flag: Bool?, flagName: String, default value: Bool) -> Sourced<Bool> {
            if let flag { return Sourced(flag, from: .flag(flagName)) }
            if let entry = file.values[key] {
                return Sourced(entry.text == "true", from: .file(path: file.path, line: entry.line))
            }
            return Sourced(value, from: .defaultValue)
        }
        let mouse = boolean("mouse", flag: flags.mouse, flagName: flags.mouse == false ? "--no-mouse" : "--mouse", default: true)
        let ascii = boolean("ascii", flag: flags.ascii, flagName: flags.ascii == false ? "--no-ascii" : "--ascii", default: false)
        let accessible: Sourced<Bool>
        if let flag = flags.accessible {
            accessible = Sourced(flag, from: .flag(flag ? "--accessible" : "--no-accessible"))
        } else if let text = environment["ACCESSIBLE"], !text.isEmpty {
            // The convention (charmbracelet/huh, gh): set and not "0"/"false" means on.
            accessible = Sourced(!["0", "false", "no"].contains(text.lowercased()), from: .environment("ACCESSIBLE"))
        } else {
            accessible = boolean("accessible", flag: nil, flagName: "", default: false)
        }
        var overrides = KeyOverrides(file: file)
        let keys = overrides.apply(to: .standard)
        for problem in overrides.problems { file.report(problem) }
        return Settings(
            server: server.map { Sourced($0.value, from: $0.source) } ?? Sourced(nil, from: .defaultValue),
            dialect: dialect ?? Sourced("v1", from: .defaultValue),
            geocoder: geocoder ?? Sourced("offline", from: .defaultValue),
            precision: precision ?? Sourced("city", from: .defaultValue),
            theme: theme.flatMap { picked in ThemeSetting(rawValue: picked.value).map { Sourced($0, from: picked.source) } }
                ?? Sourced(.auto, from: .defaultValue),
            graphics: graphics.flatMap { picked in GraphicsSetting(rawValue: picked.value).map { Sourced($0, from: picked.source) } }
                ?? Sourced(.auto, from: .defaultValue),
            mouse: mouse, ascii: ascii, accessible: accessible, keys: keys, keyOverrides: overrides.applied, file: file,
            problems: file.problems.map(\.description) + problems)
    }

    /// Why `text` is not a server URL, or nil when it is one (http or https with a host).
    static func serverComplaint(_ text: String) -> String? {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            return "server must be an http:// or https:// URL, not \"\(text)\""
        }
        let rest = text.drop { $0 != "/" }.dropFirst(2)
        guard let first = rest.first, first != "/", first != ":" else {
            return "server must name a host, not \"\(text)\""
        }
        return nil
    }

    /// `a, b or c`.
    static func list(_ choices: [String]) -> String {
        choices.count < 2 ? choices.joined() : choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
    }
}
