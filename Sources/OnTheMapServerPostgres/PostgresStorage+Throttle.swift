import Foundation
import Logging
import ServerStorage
import PostgresNIO

/// The attempt throttle, trusted addresses and invites on PostgreSQL (the same statements as
/// SQLite's, ThrottleSQL; each attempt is one atomic upsert, so instances racing on one subject
/// never lose a count).
extension PostgresStorage {
    // MARK: Throttle

    func recordAttempt(subjects: [ThrottleSubject], now: Double) async throws -> ThrottleBlock? {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            // Not worth waiting for the WAL flush (as on SQLite): a lost count gives back a guess.
            try await connection.query("SET LOCAL synchronous_commit = off", logger: logger)
            var stale = PostgresBindings()
            stale.append(now)
            stale.append(ThrottleSQL.staleAfter)
            try await connection.query(PostgresQuery(unsafeSQL: ThrottleSQL.deleteStale { "$\($0)" }, binds: stale), logger: logger)
            for subject in subjects {
                var bindings = PostgresBindings()
                bindings.append(subject.key)
                bindings.append(now)
                bindings.append(subject.limit)
                bindings.append(subject.window)
                bindings.append(subject.block)
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: ThrottleSQL.countAttempt { "$\($0)" }, binds: bindings), logger: logger)
                var blockedUntil: Double?
                for try await (_, until) in rows.decode((Int, Double?).self) { blockedUntil = until }
                if let blockedUntil, blockedUntil > now { return ThrottleBlock(subject: subject.key, until: blockedUntil) }
            }
            return nil
        }
    }

    func recordSuccess(clear: [String], release: [String], trust: String?, now: Double) async throws {
        let logger = self.logger
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("DELETE FROM login_failure WHERE subject = ANY(\(clear))", logger: logger)
            try await connection.query(
                "UPDATE login_failure SET failures = failures - 1 WHERE subject = ANY(\(release)) AND failures > 0", logger: logger)
            guard let trust else { return }
            try await connection.query(
                """
                INSERT INTO login_trust (subject, last_success) VALUES (\(trust), \(now))
                ON CONFLICT (subject) DO UPDATE SET last_success = excluded.last_success
                """, logger: logger)
        }
    }

    func isTrusted(_ trust: String, since: Double) async throws -> Bool {
        let rows = try await client.query(
            "SELECT 1 FROM login_trust WHERE subject = \(trust) AND last_success > \(since)", logger: logger)
        for try await _ in rows.decode(Int.self) { return true }
        return false
    }

    func forgetTrust(before: Double) async throws {
        try await client.query("DELETE FROM login_trust WHERE last_success <= \(before)", logger: logger)
    }

    // MARK: Invites

    func insert(_ invite: StoredInvite) async throws {
        try await client.query(
            """
            INSERT INTO invite (code_hash, uses_left, expires_at, created_at)
            VALUES (\(invite.codeHash), \(invite.usesLeft), \(invite.expiresAt), \(invite.createdAt))
            """, logger: logger)
    }

    func invites() async throws -> [StoredInvite] {
        let rows = try await client.query(
            "SELECT code_hash, uses_left, expires_at, created_at FROM invite ORDER BY created_at DESC", logger: logger)
        var invites: [StoredInvite] = []
        for try await (hash, uses, expires, created) in rows.decode((String, Int, Double?, Double).self) {
            invites.append(StoredInvite(codeHash: hash, usesLeft: uses, expiresAt: expires, createdAt: created))
        }
        return invites
    }

    func deleteInvites(hashPrefix: String) async throws -> Int {
        let rows = try await client.query(
            "DELETE FROM invite WHERE left(code_hash, \(hashPrefix.count)) = \(hashPrefix) RETURNING code_hash", logger: logger)
        var count = 0
        for try await _ in rows.decode(String.self) { count += 1 }
        return count
    }

    func inviteUsable(codeHash: String, now: Double) async throws -> Bool {
        let rows = try await client.query(
            """
            SELECT code_hash FROM invite
            WHERE code_hash = \(codeHash) AND uses_left > 0 AND (expires_at IS NULL OR expires_at > \(now))
            """, logger: logger)
        for try await _ in rows.decode(String.self) { return true }
        return false
    }

    func insert(_ account: Account, spendingInvite codeHash: String, now: Double) async throws {
        let logger = self.logger
        do {
            // One transaction: the row lock the UPDATE takes makes a second sign-up with the same
            // last use wait, then find no use left; a failed INSERT rolls the use back.
            try await client.withTransaction(logger: logger) { connection in
                let spent = try await connection.query(
                    """
                    UPDATE invite SET uses_left = uses_left - 1
                    WHERE code_hash = \(codeHash) AND uses_left > 0 AND (expires_at IS NULL OR expires_at > \(now))
                    RETURNING code_hash
                    """, logger: logger)
                var any = false
                for try await _ in spent.decode(String.self) { any = true }
                guard any else { throw StorageError.inviteNotUsable }
                try await connection.query(
                    """
                    INSERT INTO account (key, email, email_key, password_hash, first_name, last_name, created_at)
                    VALUES (\(account.key), \(account.email), \(EmailKey.canonical(account.email)), \(account.passwordHash), \(account.firstName), \(account.lastName), \(account.createdAt))
                    """, logger: logger)
            }
        } catch let error as PostgresTransactionError {
            if let failure = error.closureError as? StorageError { throw failure }
            if let failure = error.closureError as? PSQLError,
                failure.serverInfo?[.sqlState] == PostgresError.Code.uniqueViolation.raw
            {
                throw StorageError.duplicateEmail
            }
            throw error
        }
    }
}
