import Foundation
import Logging
import ServerStorage
import PostgresNIO

/// Account administration on PostgreSQL (the throttle and invites: PostgresStorage+Throttle.swift).
extension PostgresStorage {
    // MARK: Account administration

    func accounts() async throws -> [Account] {
        let rows = try await client.query(
            PostgresQuery(unsafeSQL: "SELECT \(Self.accountColumns) FROM account ORDER BY created_at, key"), logger: logger)
        var accounts: [Account] = []
        for try await row in rows { accounts.append(try Self.account(from: row)) }
        return accounts
    }

    func updatePassword(key: String, passwordHash: String) async throws -> Bool {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            var found = false
            let rows = try await connection.query(
                "UPDATE account SET password_hash = \(passwordHash) WHERE key = \(key) RETURNING key", logger: logger)
            for try await _ in rows.decode(String.self) { found = true }
            guard found else { return false }
            try await connection.query("DELETE FROM session WHERE account_key = \(key)", logger: logger)
            return true
        }
    }

    func deleteAccount(key: String) async throws -> AccountDeletion? {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            let sessions = try await Self.count(
                connection.query("DELETE FROM session WHERE account_key = \(key) RETURNING account_key", logger: logger))
            let accounts = try await Self.count(connection.query("DELETE FROM account WHERE key = \(key) RETURNING key", logger: logger))
            guard accounts > 0 else { return nil }
            let locations = try await Self.count(
                connection.query("DELETE FROM student_location WHERE unique_key = \(key) RETURNING object_id", logger: logger))
            return AccountDeletion(locations: locations, sessions: sessions)
        }
    }

    /// How many rows a `RETURNING <one text column>` statement answered.
    private static func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await _ in rows.decode(String.self) { count += 1 }
        return count
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
