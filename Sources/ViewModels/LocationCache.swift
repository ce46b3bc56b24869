import Foundation
import OnTheMapModels

/// The last successful download, kept in `$XDG_CACHE_HOME/onthemap/` so the app can show
/// something (marked offline) when the server cannot be reached.
public struct LocationCache: Sendable {
    /// What was saved and when.
    public struct Snapshot: Codable, Sendable {
        public var savedAt: Date
        public var locations: [StudentInformation]
    }

    public let fileURL: URL

    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The cache file for `server` under the XDG cache dir of `environment`.
    public static func forServer(_ server: String, environment: [String: String]) -> LocationCache {
        let base: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        }
        let name = server.map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return LocationCache(fileURL: URL(fileURLWithPath: base + "/onthemap/locations-" + String(name) + ".json"))
    }

    public func save(_ locations: [StudentInformation], at date: Date) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        guard let data = try? encoder.encode(Snapshot(savedAt: date, locations: locations)) else { return }
        try? FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: fileURL, options: .atomic)
    }

    public func load() -> Snapshot? {
        guard let data = try? Data(contentsOf: fileURL) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(Snapshot.self, from: data)
    }
}
