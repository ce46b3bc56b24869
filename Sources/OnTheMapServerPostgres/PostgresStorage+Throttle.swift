import Foundation
import Logging
import ServerStorage

/// The attempt throttle, trusted addresses and invites on PostgreSQL (the same statements as
/// SQLite's, ThrottleSQL; each attempt is one atomic upsert, so instances racing on one subject
/// never lose a count).
extension PostgresStorage {
    // MARK: Throttle

    func recordAttempt(subjects: [ThrottleSubject], now: Double) async throws -> ThrottleBlock? {
        try await pool.withTransaction { connection in
            // Not worth waiting for the WAL flush (as on SQLite): a lost count gives back a guess.
            try await connection.execute("SET LOCAL synchronous_commit = off")
            try await connection.execute(
                PGQuery(unsafeSQL: ThrottleSQL.deleteStale { "$\($0)" }, binds: [.real(now), .real(ThrottleSQL.staleAfter)]))
            for subject in subjects {
                let rows = try await connection.execute(
                    PGQuery(
                        unsafeSQL: ThrottleSQL.countAttempt { "$\($0)" },
                        binds: [subject.key.pgValue, .real(now), subject.limit.pgValue, subject.window.pgValue, subject.block.pgValue]))
                let blockedUntil = try rows.rows.last?.optionalDouble(1)
                if let blockedUntil, blockedUntil > now { return ThrottleBlock(subject: subject.key, until: blockedUntil) }
            }
            return nil
        }
    }

    func recordSuccess(clear: [String], release: [String], trust: String?, now: Double) async throws {
        try await pool.withTransaction { connection in
            try await connection.execute("DELETE FROM login_failure WHERE subject = ANY(\(clear))")
            try await connection.execute(
                "UPDATE login_failure SET failures = failures - 1 WHERE subject = ANY(\(release)) AND failures > 0")
            guard let trust else { return }
            try await connection.execute(
                """
                INSERT INTO login_trust (subject, last_success) VALUES (\(trust), \(now))
                ON CONFLICT (subject) DO UPDATE SET last_success = excluded.last_success
                """)
        }
    }

    func isTrusted(_ trust: String, since: Double) async throws -> Bool {
        try await pool.execute("SELECT 1 FROM login_trust WHERE subject = \(trust) AND last_success > \(since)").first != nil
    }

    func forgetTrust(before: Double) async throws {
        try await pool.execute("DELETE FROM login_trust WHERE last_success <= \(before)")
    }

    // MARK: Invites

    func insert(_ invite: StoredInvite) async throws {
        try await pool.execute(
            """
            INSERT INTO invite (code_hash, uses_left, expires_at, created_at)
            VALUES (\(invite.codeHash), \(invite.usesLeft), \(invite.expiresAt), \(invite.createdAt))
            """)
    }

    func invites() async throws -> [StoredInvite] {
        try await pool.execute("SELECT code_hash, uses_left, expires_at, created_at FROM invite ORDER BY created_at DESC").rows
            .map { row in
                StoredInvite(
                    codeHash: try row.text(0), usesLeft: try row.int(1), expiresAt: try row.optionalDouble(2),
                    createdAt: try row.double(3))
            }
    }

    func deleteInvites(hashPrefix: String) async throws -> Int {
        try await pool.execute("DELETE FROM invite WHERE left(code_hash, \(hashPrefix.count)::integer) = \(hashPrefix)").affected
    }

    func inviteUsable(codeHash: String, now: Double) async throws -> Bool {
        try await pool.execute(
            """
            SELECT code_hash FROM invite
            WHERE code_hash = \(codeHash) AND uses_left > 0 AND (expires_at IS NULL OR expires_at > \(now))
            """
        ).first != nil
    }

    func insert(_ account: Account, spendingInvite codeHash: String, now: Double) async throws {
        do {
            // One transaction: the row lock the UPDATE takes makes a second sign-up with the same
            // last use wait, then find no use left; a failed INSERT rolls the use back.
            try await pool.withTransaction { connection in
                let spent = try await connection.execute(
                    """
                    UPDATE invite SET uses_left = uses_left - 1
                    WHERE code_hash = \(codeHash) AND uses_left > 0 AND (expires_at IS NULL OR expires_at > \(now))
                    RETURNING code_hash
                    """)
                guard spent.first != nil else { throw StorageError.inviteNotUsable }
                try await connection.execute(Self.insertion(account))
            }
        } catch let error as PGError where error.sqlState == PGError.uniqueViolation {
            throw StorageError.duplicateEmail
        }
    }
}
