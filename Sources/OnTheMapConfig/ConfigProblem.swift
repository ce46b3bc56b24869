/// Something wrong in the settings file, with the line it is on when known. Its description is
/// the one line the user sees: `…/config.toml:3: theme must be dark, light or mono, not "pink"`.
public struct ConfigProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}
