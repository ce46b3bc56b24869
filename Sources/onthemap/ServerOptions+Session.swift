import APIClient
import Foundation

/// The stored session (`onthemap login`) seen from the server options: which server a session
/// belongs to, and a connection that carries it.
extension ServerOptions {
    /// The name a stored session is filed under: the configured URL without trailing slashes, or
    /// `built-in` for the embedded server (whose port changes every run but whose database — and
    /// so its sessions — persists in the XDG data folder).
    var sessionServerKey: String {
        guard var text = configuredServer else { return "built-in" }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// How messages name the server.
    var serverLabel: String {
        configuredServer == nil ? "the built-in server" : sessionServerKey
    }

    /// The stored session for this server, or exit status 3 when there is none or it expired.
    func storedSession(now: Date = Date()) throws -> StoredSession {
        guard let stored = StoredSession.load(), stored.server == sessionServerKey else {
            throw ExitFailure.notLoggedIn(server: serverLabel)
        }
        guard !stored.isExpired(now: now) else {
            throw ExitFailure(.notLoggedIn, "the session for \(serverLabel) expired: run `onthemap login` again.")
        }
        return stored
    }

    /// A connection whose client carries the stored session.
    func connect(resuming stored: StoredSession) async throws -> Connection {
        let connection = try await connect()
        connection.client.resume(stored.userSession)
        return connection
    }
}
