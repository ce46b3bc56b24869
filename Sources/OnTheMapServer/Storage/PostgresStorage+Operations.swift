import Foundation
import Logging
import PostgresNIO

/// The failed-login throttle and account administration on PostgreSQL (the same behaviour as
/// SQLiteStorage+Operations.swift; each failure is one atomic upsert, so instances racing on one
/// subject never lose a count).
extension PostgresStorage {
    // MARK: Failed-login throttle

    func loginBlockedUntil(subjects: [String], now: Double) async throws -> Double? {
        guard !subjects.isEmpty else { return nil }
        let rows = try await client.query(
            "SELECT MAX(blocked_until) FROM login_failure WHERE subject = ANY(\(subjects)) AND blocked_until > \(now)",
            logger: logger)
        for try await (until) in rows.decode(Double?.self) { return until }
        return nil
    }

    func recordLoginFailure(subjects: [ThrottleSubject], now: Double, window: Double, block: Double) async throws {
        let logger = self.logger
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                "DELETE FROM login_failure WHERE window_start < \(now - window) AND COALESCE(blocked_until, 0) < \(now)",
                logger: logger)
            for subject in subjects {
                var bindings = PostgresBindings()
                bindings.append(subject.key)
                bindings.append(now)
                bindings.append(subject.limit)
                bindings.append(window)
                bindings.append(block)
                // The count restarts when the block is over, or the window is and no block runs.
                let restart = """
                    (NOT COALESCE(f.blocked_until > $2, false)
                     AND (COALESCE(f.blocked_until <= $2, false) OR f.window_start < $2 - $4))
                    """
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            INSERT INTO login_failure AS f (subject, failures, window_start, blocked_until)
                            VALUES ($1, 1, $2, CASE WHEN 1 >= $3 THEN $2 + $5 END)
                            ON CONFLICT (subject) DO UPDATE SET
                                failures = CASE WHEN \(restart) THEN 1 ELSE f.failures + 1 END,
                                window_start = CASE WHEN \(restart) THEN $2 ELSE f.window_start END,
                                blocked_until = CASE
                                    WHEN f.blocked_until > $2 THEN f.blocked_until
                                    WHEN (CASE WHEN \(restart) THEN 1 ELSE f.failures + 1 END) >= $3 THEN $2 + $5
                                END
                            """,
                        binds: bindings), logger: logger)
            }
        }
    }

    func clearLoginFailures(subject: String) async throws {
        try await client.query(
            "DELETE FROM login_failure WHERE subject = \(subject)", logger: logger)
    }

    // MARK: Account administration

    func accounts() async throws -> [Account] {
        let rows = try await client.query(
            "SELECT key, email, password_hash, first_name, last_name, created_at FROM account ORDER BY created_at, key",
            logger: logger)
        var accounts: [Account] = []
        for try await (key, email, hash, first, last, created) in rows.decode((String, String, String, String, String, String).self) {
            accounts.append(Account(key: key, email: email, passwordHash: hash, firstName: first, lastName: last, createdAt: created))
        }
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

    func deleteAccount(key: String) async throws -> Bool {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            try await connection.query("DELETE FROM session WHERE account_key = \(key)", logger: logger)
            var found = false
            for try await _ in try await connection.query("DELETE FROM account WHERE key = \(key) RETURNING key", logger: logger)
                .decode(String.self)
            {
                found = true
            }
            return found
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
    ]
}

extension PostgresSchema {
    /// The channel every write to `student_location` notifies, so that each instance's list
    /// cache hears of other instances' writes (`PostgresStorage.observeLocationChanges`).
    static let changeChannel = "student_location_changed"

    /// A statement-level trigger: one notification per writing statement, and PostgreSQL folds
    /// repeats within a transaction; nothing is sent for a rolled-back one.
    static let changeNotification = [
        """
        CREATE OR REPLACE FUNCTION student_location_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('\(changeChannel)', '');
            RETURN NULL;
        END
        $$
        """,
        """
        CREATE OR REPLACE TRIGGER student_location_changed
            AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON student_location
            FOR EACH STATEMENT EXECUTE FUNCTION student_location_notify()
        """,
    ]
}
