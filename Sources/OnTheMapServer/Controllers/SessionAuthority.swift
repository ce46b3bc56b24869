import Foundation
import OnTheMapModels
import HummingbirdBcrypt
import NIOPosix

/// Accounts, passwords and sessions: the one place that hashes, verifies and issues sessions.
struct SessionAuthority: Sendable {
    let storage: any ServerStorage
    let configuration: ServerConfiguration

    /// The account whose email and password these are, or `nil`.
    ///
    /// bcrypt takes tens of milliseconds by design, so it runs on NIO's thread pool rather than
    /// on the threads that serve requests. An unknown email still costs one hash, so timing does
    /// not tell which emails have accounts.
    func verify(email: String, password: String) async throws -> Account? {
        let account = try await storage.account(email: email)
        let hash = account?.passwordHash ?? Self.decoyHash
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
        return matches ? account : nil
    }

    /// A new account with a random 10-digit key.
    func createAccount(email: String, password: String, firstName: String, lastName: String) async throws -> Account {
        let cost = max(configuration.bcryptCost, 4)
        let hash = try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
        let account = Account(
            key: RandomID.accountKey(), email: email, passwordHash: hash, firstName: firstName, lastName: lastName,
            createdAt: WireDate.string(from: Date()))
        try await storage.insert(account)
        return account
    }

    /// Issues a session (≈190 random bits) and its XSRF token.
    func openSession(for account: Account) async throws -> StoredSession {
        let session = StoredSession(
            id: RandomID.alphanumeric(32), accountKey: account.key, xsrfToken: RandomID.alphanumeric(32),
            expiresAt: Date().timeIntervalSince1970 + configuration.sessionLifetime)
        try await storage.insert(session)
        return session
    }

    func session(id: String) async throws -> StoredSession? {
        try await storage.session(id: id, now: Date().timeIntervalSince1970)
    }

    func session(xsrfToken: String) async throws -> StoredSession? {
        try await storage.session(xsrfToken: xsrfToken, now: Date().timeIntervalSince1970)
    }

    /// A valid hash of a random password, checked against when the email is unknown.
    private static let decoyHash = Bcrypt.hash(RandomID.alphanumeric(16), cost: 10)

    /// Checks a new password; `nil` when acceptable.
    static func passwordProblem(_ password: String) -> String? {
        if password.count < 8 { return "The password must have at least 8 characters." }
        if password.utf8.count > 72 { return "The password must be at most 72 bytes." }
        return nil
    }

    /// Checks an email; `nil` when acceptable.
    static func emailProblem(_ email: String) -> String? {
        let parts = email.split(separator: "@")
        if parts.count != 2 || email.count > 254 || email.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 32 } == true }) {
            return "Enter a valid email address."
        }
        return nil
    }
}
