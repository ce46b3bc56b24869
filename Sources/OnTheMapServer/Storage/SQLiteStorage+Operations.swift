import Foundation
import GRDB

/// The failed-login throttle and account administration on SQLite.
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

    // MARK: Failed-login throttle

    func loginBlockedUntil(subjects: [String], now: Double) async throws -> Double? {
        guard !subjects.isEmpty else { return nil }
        let marks = Array(repeating: "?", count: subjects.count).joined(separator: ", ")
        return try await pool.read { db in
            try Double.fetchOne(
                db, sql: "SELECT MAX(blocked_until) FROM login_failure WHERE subject IN (\(marks)) AND blocked_until > ?",
                arguments: StatementArguments(subjects) + [now])
        }
    }

    func recordLoginFailure(subjects: [ThrottleSubject], now: Double, window: Double, block: Double) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM login_failure WHERE window_start < ? AND COALESCE(blocked_until, 0) < ?",
                arguments: [now - window, now])
            for subject in subjects {
                var failures = 0
                var windowStart = now
                var blockedUntil: Double?
                if let row = try Row.fetchOne(
                    db, sql: "SELECT failures, window_start, blocked_until FROM login_failure WHERE subject = ?",
                    arguments: [subject.key])
                {
                    let previousBlock: Double? = row["blocked_until"]
                    let blockedNow = previousBlock.map { $0 > now } ?? false
                    let blockOver = previousBlock.map { $0 <= now } ?? false
                    let windowOver = (row["window_start"] as Double) < now - window
                    if blockedNow || !(blockOver || windowOver) {
                        failures = row["failures"]
                        windowStart = row["window_start"]
                        blockedUntil = blockedNow ? previousBlock : nil
                    }
                }
                failures += 1
                if blockedUntil == nil, failures >= subject.limit { blockedUntil = now + block }
                try db.execute(
                    sql: """
                        INSERT INTO login_failure (subject, failures, window_start, blocked_until) VALUES (?, ?, ?, ?)
                        ON CONFLICT (subject) DO UPDATE SET failures = excluded.failures,
                            window_start = excluded.window_start, blocked_until = excluded.blocked_until
                        """,
                    arguments: [subject.key, failures, windowStart, blockedUntil])
            }
        }
    }

    func clearLoginFailures(subject: String) async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM login_failure WHERE subject = ?", arguments: [subject]) }
    }

    // MARK: Account administration

    func accounts() async throws -> [Account] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM account ORDER BY created_at, key").map { row in
                Account(
                    key: row["key"], email: row["email"], passwordHash: row["password_hash"], firstName: row["first_name"],
                    lastName: row["last_name"], createdAt: row["created_at"])
            }
        }
    }

    func updatePassword(key: String, passwordHash: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "UPDATE account SET password_hash = ? WHERE key = ?", arguments: [passwordHash, key])
            guard db.changesCount > 0 else { return false }
            try db.execute(sql: "DELETE FROM session WHERE account_key = ?", arguments: [key])
            return true
        }
    }

    func deleteAccount(key: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM session WHERE account_key = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM account WHERE key = ?", arguments: [key])
            return db.changesCount > 0
        }
    }
}
