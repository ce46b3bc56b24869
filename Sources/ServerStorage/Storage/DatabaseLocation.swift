import Foundation

/// Where a server keeps its data: a SQLite file, or a PostgreSQL database.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: URL)

    /// `postgres://…` or `postgresql://…` is PostgreSQL; anything else is a SQLite path.
    public init(_ text: String) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://"), let url = URL(string: text) {
            self = .postgres(url: url)
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The location with any password hidden, for logs and messages.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url):
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "postgres://…" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres://…"
        }
    }

    /// The time one list (and count) query may take in the database unless configured
    /// (`ServerConfiguration.queryTimeout`).
    package static let defaultQueryTimeout: Duration = .seconds(2)
}
