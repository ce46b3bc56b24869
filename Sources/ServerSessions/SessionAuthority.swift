import ClassRules
import Foundation
import HummingbirdBcrypt
import OnTheMapModels
import ServerConfig
import ServerStorage
import Synchronization

/// Accounts, passwords and sessions: the one place that hashes, verifies and issues sessions.
package struct SessionAuthority: Sendable {
    package let storage: any ServerStorage
    /// The write path, for new accounts.
    package let writes: ClassWrites
    let configuration: ServerConfiguration
    /// Bounds the hashes of the whole process (one gate per server).
    let gate: HashGate

    package init(storage: any ServerStorage, writes: ClassWrites, configuration: ServerConfiguration, gate: HashGate? = nil) {
        self.storage = storage
        self.writes = writes
        self.configuration = configuration
        self.gate =
            gate
            ?? HashGate(
                running: configuration.maxConcurrentHashes, waiting: configuration.maxWaitingHashes,
                maxWait: .milliseconds(Int64(configuration.maxHashWaitSeconds * 1000)))
    }

    private var cost: UInt8 { max(configuration.bcryptCost, 4) }

    /// The account, when the password is its own; else `nil`.
    ///
    /// bcrypt takes tens of milliseconds by design, so it runs behind the gate on NIO's thread
    /// pool rather than on the threads that serve requests. An unknown email still costs one
    /// hash at the configured cost, so timing does not tell which emails have accounts.
    /// `found` is the account the storage found by the email given (`nil`: unknown).
    package func verify(account found: Account?, password: String) async throws -> Account? {
        // An account made from a provider profile has no password until one is set.
        let account = found.flatMap { $0.passwordHash.isEmpty ? nil : $0 }
        let cost = self.cost
        let matches = try await gate.run(account == nil ? "decoy" : "login") {
            Bcrypt.verify(password, hash: account?.passwordHash ?? Self.decoyHash(cost: cost))
        }
        return matches ? account : nil
    }

    /// A new account with a random 10-digit key. With `invite` (a code's hash), the account is
    /// written and one use of the invite taken in one transaction, after the password is hashed:
    /// a refusal on the way (503 from the hash gate, a duplicate email) leaves the invite unspent.
    /// `permit`: the rule's permit to create an account (`Access.permit(.createAccount, by:)`).
    package func createAccount(
        email: String, password: String, firstName: String, lastName: String, spendingInvite invite: String? = nil,
        _ permit: WritePermit
    ) async throws -> Account {
        let cost = self.cost
        let hash = try await gate.run("signup") { Bcrypt.hash(password, cost: cost) }
        let account = Account(
            key: RandomID.accountKey(), email: email, passwordHash: hash, firstName: firstName, lastName: lastName,
            createdAt: WireDate.string(from: Date()))
        try await writes.createAccount(account, spendingInvite: invite, permit)
        return account
    }

    /// A new password's hash (`user reset-password`).
    package func passwordHash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await gate.run("reset") { Bcrypt.hash(password, cost: cost) }
    }

    /// Issues a session (≈190 random bits) and its XSRF token; stores only their hashes.
    package func openSession(for account: Account) async throws -> IssuedSession {
        let id = RandomID.alphanumeric(32)
        let xsrfToken = RandomID.alphanumeric(32)
        let expiresAt = Date().timeIntervalSince1970 + configuration.sessionLifetime
        try await storage.insert(
            StoredSession(
                idHash: SessionSeal.hash(id), accountKey: account.key, xsrfHash: SessionSeal.hash(xsrfToken),
                sealedId: SessionSeal.seal(id: id, xsrfToken: xsrfToken), expiresAt: expiresAt))
        return IssuedSession(id: id, accountKey: account.key, xsrfToken: xsrfToken, expiresAt: expiresAt)
    }

    /// The live session with this id (a bearer token).
    package func session(id: String) async throws -> IssuedSession? {
        guard let stored = try await storage.session(idHash: SessionSeal.hash(id), now: Date().timeIntervalSince1970) else {
            return nil
        }
        return IssuedSession(id: id, accountKey: stored.accountKey, xsrfToken: nil, expiresAt: stored.expiresAt)
    }

    /// The live session of this XSRF token; its id unsealed with the token.
    package func session(xsrfToken: String) async throws -> IssuedSession? {
        let now = Date().timeIntervalSince1970
        guard let stored = try await storage.session(xsrfHash: SessionSeal.hash(xsrfToken), now: now),
            let id = SessionSeal.unseal(stored.sealedId, xsrfToken: xsrfToken)
        else { return nil }
        return IssuedSession(id: id, accountKey: stored.accountKey, xsrfToken: xsrfToken, expiresAt: stored.expiresAt)
    }

    /// The caller of a live session and when the session expires (seconds since 1970); nil for a
    /// session that is not live or whose account is gone or suspended. The API's `CallerResolver`
    /// and the LiveQuery socket both ask this; the caller itself is minted by the rule
    /// (`Caller.ofLiveSession(idHash:in:now:)`), from the session it finds in storage.
    package func caller(sessionID: String) async throws -> (caller: Caller, expiresAt: Double)? {
        try await Caller.ofLiveSession(idHash: SessionSeal.hash(sessionID), in: storage, now: Date().timeIntervalSince1970)
    }

    /// Ends the session with this id.
    package func endSession(id: String) async throws {
        try await storage.deleteSession(idHash: SessionSeal.hash(id))
    }

    /// A valid hash of a random password per cost, checked against when the email is unknown.
    private static let decoys = Mutex<[UInt8: String]>([:])

    private static func decoyHash(cost: UInt8) -> String {
        if let hash = decoys.withLock({ $0[cost] }) { return hash }
        let hash = Bcrypt.hash(RandomID.alphanumeric(16), cost: cost)
        decoys.withLock { $0[cost] = $0[cost] ?? hash }
        return hash
    }
}

/// A session as the server hands it out: the clear id (known only right after login, or from
/// the request that carries it).
package struct IssuedSession: Sendable, Hashable {
    package var id: String
    package var accountKey: String
    /// Known when the session was just opened or found by its token.
    package var xsrfToken: String?
    /// Seconds since 1970.
    package var expiresAt: Double
}
