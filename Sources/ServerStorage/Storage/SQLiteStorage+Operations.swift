import Foundation
import GRDB

/// Account administration on SQLite (the throttle and invites: SQLiteStorage+Throttle.swift).
extension SQLiteStorage {
    static let loginFailureSchema = """
        CREATE TABLE login_failure (
            subject TEXT PRIMARY KEY NOT NULL,
            failures INTEGER NOT NULL,
            window_start REAL NOT NULL,
            blocked_until REAL
        );
        CREATE INDEX login_failure_window ON login_failure (window_start);
        """

    // MARK: Account administration

    public func accounts() async throws -> [Account] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM account ORDER BY created_at, key").map(Self.account(from:))
        }
    }

    public func updatePassword(key: String, passwordHash: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "UPDATE account SET password_hash = ? WHERE key = ?", arguments: [passwordHash, key])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "DELETE FROM session WHERE account_key = ?", arguments: [key])
            return true
        }
    }

    public func deleteAccount(key: String, audit: AuditEntry) async throws -> AccountDeletion? {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM session WHERE account_key = ?", arguments: [key])
            let sessions = db.changesCount
            try db.execute(sql: "DELETE FROM account WHERE key = ?", arguments: [key])
            guard db.changesCount > 0 else { return nil }
            try db.execute(sql: "DELETE FROM student_location WHERE unique_key = ?", arguments: [key])
            let deletion = AccountDeletion(locations: db.changesCount, sessions: sessions)
            try Self.insert(audit, db)
            return deletion
        }
    }
}
