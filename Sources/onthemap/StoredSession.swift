import APIClient
import Foundation
import OnTheMapModels

#if canImport(Glibc)
    import Glibc
#endif

/// The session `onthemap login` keeps for later runs, in `$XDG_STATE_HOME/onthemap/session.json`
/// (default `~/.local/state/onthemap/`): the session id, the account key, the server it belongs
/// to and its expiry — never the password. Written atomically with mode 0600.
struct StoredSession: Codable, Equatable {
    /// `ServerOptions.sessionServerKey`: the server's URL, or `built-in`.
    var server: String
    var accountKey: String
    var sessionID: String
    var expiration: String
    /// How the session was made (`password` today; `facebook`/`device` when issue 12 lands).
    var provider: String = "password"

    var userSession: UserSession {
        UserSession(accountKey: accountKey, sessionID: sessionID, expiration: expiration)
    }

    /// Whether the expiry has passed (an unreadable expiry counts as not passed: the server decides).
    func isExpired(now: Date = Date()) -> Bool {
        guard let date = WireDate.date(from: expiration) else { return false }
        return date <= now
    }

    /// The state file's path for `environment`.
    static func fileURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home).appendingPathComponent(".local/state")
        }
        return base.appendingPathComponent("onthemap/session.json")
    }

    /// The stored session, if a readable one exists.
    static func load(from url: URL = fileURL()) -> StoredSession? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try? JSONDecoder().decode(StoredSession.self, from: data)
    }

    /// The stored session for `server`, if any and not expired.
    static func valid(for server: String, from url: URL = fileURL(), now: Date = Date()) -> StoredSession? {
        guard let stored = load(from: url), stored.server == server, !stored.isExpired(now: now) else { return nil }
        return stored
    }

    /// Writes the file: a temporary file created 0600 in the same folder (the folder 0700), then
    /// renamed over the old one, so no reader ever sees half a file or a readable mode.
    func save(to url: URL = fileURL()) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(self) + Data("\n".utf8)
        let temporary = folder.appendingPathComponent(".session.json.\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CommandFailure("cannot write \(temporary.path): \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw CommandFailure("cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Deletes the file (no error when it is already gone).
    static func remove(at url: URL = fileURL()) {
        unlink(url.path)
    }
}
