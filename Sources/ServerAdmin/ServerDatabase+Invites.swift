import Foundation
import ServerSessions
import ServerStorage

/// Sign-up invites for `onthemap-server invite …` (with `--signup invite`).
extension ServerDatabase {
    /// An invite as `invite list` shows it: never the code, which is not stored.
    public struct InviteSummary: Sendable, Equatable {
        /// The first 12 hex digits of the code's SHA-256 (what `invite revoke` takes).
        public var id: String
        public var usesLeft: Int
        public var expiresAt: Date?
        public var createdAt: Date
    }

    /// Creates an invite good for `uses` sign-ups until `expiresAt` (never, if `nil`); returns
    /// the code (shown this once) and its id.
    public func createInvite(uses: Int, expiresAt: Date?) async throws -> (code: String, id: String) {
        guard uses >= 1 else { throw AccountError.invalid("An invite allows at least 1 sign-up.") }
        let code = InviteCode.make()
        let hash = InviteCode.hash(code)
        try await storage.insert(
            StoredInvite(
                codeHash: hash, usesLeft: uses, expiresAt: expiresAt?.timeIntervalSince1970,
                createdAt: Date().timeIntervalSince1970))
        return (code, InviteCode.id(ofHash: hash))
    }

    /// Every invite, newest first (used-up and expired ones too).
    public func invites() async throws -> [InviteSummary] {
        try await storage.invites().map {
            InviteSummary(
                id: InviteCode.id(ofHash: $0.codeHash), usesLeft: $0.usesLeft,
                expiresAt: $0.expiresAt.map(Date.init(timeIntervalSince1970:)), createdAt: Date(timeIntervalSince1970: $0.createdAt))
        }
    }

    /// Deletes the invite named by its id (as `invite list` shows it) or by its code; returns
    /// how many were deleted (0 or 1).
    public func revokeInvite(_ idOrCode: String) async throws -> Int {
        let text = idOrCode.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let isID = text.count == 12 && text.allSatisfy { $0.isHexDigit }
        let prefix = isID ? text : InviteCode.id(ofHash: InviteCode.hash(idOrCode))
        return try await storage.deleteInvites(hashPrefix: prefix)
    }
}
