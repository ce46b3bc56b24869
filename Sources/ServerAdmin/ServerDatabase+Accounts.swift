import ClassRules
import Foundation
import ServerSessions
import ServerStorage

/// Account administration for `onthemap-server user …`.
extension ServerDatabase {
    /// An account as `user list` shows it (never the password hash).
    public struct AccountSummary: Sendable, Equatable {
        public var key: String
        public var email: String
        public var firstName: String
        public var lastName: String
        public var createdAt: String
        /// `student` or `moderator`.
        public var role: String
        public var suspended: Bool
    }

    /// Every account, oldest first.
    public func users() async throws -> [AccountSummary] {
        try await storage.accounts().map {
            AccountSummary(
                key: $0.key, email: $0.email, firstName: $0.firstName, lastName: $0.lastName, createdAt: $0.createdAt,
                role: $0.role.rawValue, suspended: $0.suspendedAt != nil)
        }
    }

    /// The key of the account named by `keyOrEmail` (a key, or an email, case-insensitively).
    func accountKey(_ keyOrEmail: String) async throws -> String {
        if let account = try await storage.account(key: keyOrEmail) { return account.key }
        if let account = try await storage.account(email: keyOrEmail) { return account.key }
        throw AccountError.invalid("No account with the key or email \(keyOrEmail).")
    }

    /// Sets a new password, ends the account's sessions and clears its account-wide login count; returns the key.
    public func resetPassword(keyOrEmail: String, password: String) async throws -> String {
        if let problem = AccountRules.passwordProblem(password) { throw AccountError.invalid(problem) }
        let key = try await accountKey(keyOrEmail)
        let hash = try await SessionAuthority(storage: storage, writes: writes, configuration: configuration).passwordHash(password)
        do {
            try await writes.setPassword(key: key, passwordHash: hash, try permit(.setPassword(key: key)))
        } catch WriteRefusal.notFound {
            throw AccountError.invalid("No account with the key or email \(keyOrEmail).")
        }
        // The shared budget of its untrusted addresses; each guessing address keeps its own block.
        try await storage.recordSuccess(
            clear: ["account:" + ThrottleSubject.accountName(key: key, email: "")], release: [], trust: nil,
            now: Date().timeIntervalSince1970)
        return key
    }

    /// Deletes an account, its sessions and its locations (Docs/Access.md: the account's data
    /// goes with it). Returns the key and how many locations were deleted.
    public func deleteUser(keyOrEmail: String) async throws -> (key: String, locationsDeleted: Int) {
        let key = try await accountKey(keyOrEmail)
        do {
            return (key, try await writes.deleteAccount(key: key, try permit(.deleteAccount(key: key))).locations)
        } catch WriteRefusal.notFound {
            throw AccountError.invalid("No account with the key or email \(keyOrEmail).")
        }
    }
}
