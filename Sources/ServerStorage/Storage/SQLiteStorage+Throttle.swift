import Foundation
import GRDB

/// The attempt throttle, trusted addresses and invites on SQLite.
extension SQLiteStorage {
    // MARK: Throttle

    /// Without an fsync (`synchronous=NORMAL` for this one transaction): a count lost to a power
    /// cut gives back a guess or two, while syncing every attempt would let a login flood queue
    /// every other write behind hundreds of fsyncs.
    public func recordAttempt(subjects: [ThrottleSubject], now: Double) async throws -> ThrottleBlock? {
        try await pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
            var block: ThrottleBlock?
            try db.inTransaction {
                try db.execute(sql: ThrottleSQL.deleteStale { "?\($0)" }, arguments: [now, ThrottleSQL.staleAfter])
                let statement = try db.cachedStatement(sql: ThrottleSQL.countAttempt { "?\($0)" })
                for subject in subjects {
                    let row = try Row.fetchOne(statement, arguments: [subject.key, now, subject.limit, subject.window, subject.block])
                    if let until = row?["blocked_until"] as Double?, until > now {
                        block = ThrottleBlock(subject: subject.key, until: until)
                        break
                    }
                }
                return .commit
            }
            return block
        }
    }

    public func recordSuccess(clear: [String], release: [String], trust: String?, now: Double) async throws {
        try await pool.write { db in
            for subject in clear { try db.execute(sql: "DELETE FROM login_failure WHERE subject = ?", arguments: [subject]) }
            for subject in release {
                try db.execute(
                    sql: "UPDATE login_failure SET failures = failures - 1 WHERE subject = ? AND failures > 0", arguments: [subject])
            }
            guard let trust else { return }
            try db.execute(
                sql: """
                    INSERT INTO login_trust (subject, last_success) VALUES (?, ?)
                    ON CONFLICT (subject) DO UPDATE SET last_success = excluded.last_success
                    """, arguments: [trust, now])
        }
    }

    public func isTrusted(_ trust: String, since: Double) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM login_trust WHERE subject = ? AND last_success > ?", arguments: [trust, since]) ?? false
        }
    }

    public func forgetTrust(before: Double) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM login_trust WHERE last_success <= ?", arguments: [before])
        }
    }

    // MARK: Invites

    public func insert(_ invite: StoredInvite) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO invite (code_hash, uses_left, expires_at, created_at) VALUES (?, ?, ?, ?)",
                arguments: [invite.codeHash, invite.usesLeft, invite.expiresAt, invite.createdAt])
        }
    }

    public func invites() async throws -> [StoredInvite] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM invite ORDER BY created_at DESC").map {
                StoredInvite(codeHash: $0["code_hash"], usesLeft: $0["uses_left"], expiresAt: $0["expires_at"], createdAt: $0["created_at"])
            }
        }
    }

    public func deleteInvites(hashPrefix: String) async throws -> Int {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM invite WHERE substr(code_hash, 1, ?) = ?", arguments: [hashPrefix.count, hashPrefix])
            return db.changesCount
        }
    }

    public func inviteUsable(codeHash: String, now: Double) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM invite WHERE code_hash = ? AND uses_left > 0 AND (expires_at IS NULL OR expires_at > ?)",
                arguments: [codeHash, now]) ?? false
        }
    }

    public func insert(_ account: Account, spendingInvite codeHash: String, now: Double) async throws {
        do {
            // One write transaction: a throw rolls back the spent use.
            try await pool.write { db in
                try db.execute(
                    sql: """
                        UPDATE invite SET uses_left = uses_left - 1
                        WHERE code_hash = ? AND uses_left > 0 AND (expires_at IS NULL OR expires_at > ?)
                        """, arguments: [codeHash, now])
                guard db.changesCount > 0 else { throw StorageError.inviteNotUsable }
                try db.execute(
                    sql: "INSERT INTO account (key, email, email_key, password_hash, first_name, last_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [account.key, account.email, EmailKey.canonical(account.email), account.passwordHash, account.firstName, account.lastName, account.createdAt])
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StorageError.duplicateEmail
        }
    }
}
