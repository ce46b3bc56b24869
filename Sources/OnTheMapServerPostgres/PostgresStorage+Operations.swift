import Foundation
import Logging
import ServerStorage

/// Account administration on PostgreSQL (the throttle and invites: PostgresStorage+Throttle.swift).
extension PostgresStorage {
    // MARK: Account administration

    func accounts() async throws -> [Account] {
        try await pool.execute(PGQuery(unsafeSQL: "SELECT \(Self.accountColumns) FROM account ORDER BY created_at, key"))
            .rows.map(Self.account(from:))
    }

    func updatePassword(key: String, passwordHash: String) async throws -> Bool {
        try await pool.withTransaction { connection in
            let found =
                try await connection.execute(
                    "UPDATE account SET password_hash = \(passwordHash) WHERE key = \(key) RETURNING key"
                ).first != nil
            guard found else { return false }
            try await connection.execute("DELETE FROM session WHERE account_key = \(key)")
            return true
        }
    }

    func deleteAccount(key: String, audit: AuditEntry) async throws -> AccountDeletion? {
        try await pool.withTransaction { connection in
            let sessions = try await connection.execute("DELETE FROM session WHERE account_key = \(key)").affected
            let accounts = try await connection.execute("DELETE FROM account WHERE key = \(key)").affected
            guard accounts > 0 else { return nil }
            let locations = try await connection.execute("DELETE FROM student_location WHERE unique_key = \(key)").affected
            try await self.insert(audit, on: connection)
            return AccountDeletion(locations: locations, sessions: sessions)
        }
    }
}

extension PostgresSchema {
    /// Added by the throttle: idempotent like the rest of the schema.
    static let operations = [
        """
        CREATE TABLE IF NOT EXISTS login_failure (
            subject TEXT COLLATE "C" PRIMARY KEY,
            failures INTEGER NOT NULL,
            window_start DOUBLE PRECISION NOT NULL,
            blocked_until DOUBLE PRECISION
        )
        """,
        "CREATE INDEX IF NOT EXISTS login_failure_window ON login_failure (window_start)",
        ThrottleSQL.trustTable,
        ThrottleSQL.inviteTable,
        // Sessions at rest only as hashes (SessionSeal): sessions opened before cannot be sealed
        // without their XSRF token, so they end (idempotent: sealed rows are kept).
        "ALTER TABLE session ADD COLUMN IF NOT EXISTS sealed_id TEXT",
        "DELETE FROM session WHERE sealed_id IS NULL",
    ]
}
