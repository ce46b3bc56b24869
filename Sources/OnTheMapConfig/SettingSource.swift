/// Where an effective setting came from, highest precedence first.
public enum SettingSource: Sendable, Hashable, CustomStringConvertible {
    /// A command-line flag, as typed (`--theme`).
    case flag(String)
    /// An environment variable (`ONTHEMAP_SERVER`).
    case environment(String)
    /// The settings file, at a line when known.
    case file(path: String, line: Int?)
    case defaultValue

    public var description: String {
        switch self {
        case .flag(let flag): "flag \(flag)"
        case .environment(let name): "environment \(name)"
        case .file(let path, let line): "file \(path)\(line.map { ":\($0)" } ?? "")"
        case .defaultValue: "default"
        }
    }
}

/// A value and where it came from.
public struct Sourced<Value: Sendable & Hashable>: Sendable, Hashable {
    public var value: Value
    public var source: SettingSource

    public init(_ value: Value, from source: SettingSource) {
        self.value = value
        self.source = source
    }
}
