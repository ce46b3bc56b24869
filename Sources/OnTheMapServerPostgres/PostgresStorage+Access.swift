import Foundation
import Logging
import ServerStorage
import PostgresNIO

/// Roles, suspension, hidden rows, fair share and the audit log on PostgreSQL (Docs/Access.md).
extension PostgresStorage {
    func insert(_ location: StoredLocation, maxRowsPerOwner: Int) async throws -> Bool {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            // Concurrent POSTs of one account, on any instance, count one after the other.
            try await connection.query(
                "SELECT pg_advisory_xact_lock(7345002, hashtext(\(location.uniqueKey ?? "")))", logger: logger)
            var count = 0
            for try await (value) in try await connection.query(
                "SELECT COUNT(*) FROM student_location WHERE unique_key = \(location.uniqueKey)", logger: logger
            ).decode(Int.self) {
                count = value
            }
            guard count < maxRowsPerOwner else { return false }
            try await self.insert(location, on: connection)
            return true
        }
    }

    func setHidden(objectId: String, mark: HiddenMark?) async throws -> Bool {
        var found = false
        let rows = try await client.query(
            """
            UPDATE student_location SET hidden_at = \(mark?.at), hidden_reason = \(mark?.reason), hidden_by = \(mark?.by)
            WHERE object_id = \(objectId) RETURNING object_id
            """, logger: logger)
        for try await _ in rows.decode(String.self) { found = true }
        return found
    }

    func hasHiddenLocations(owner: String) async throws -> Bool {
        let rows = try await client.query(
            "SELECT 1 FROM student_location WHERE unique_key = \(owner) AND hidden_at IS NOT NULL LIMIT 1",
            logger: logger)
        for try await _ in rows.decode(Int.self) { return true }
        return false
    }

    func setRole(key: String, role: AccountRole) async throws -> Bool {
        var found = false
        let rows = try await client.query(
            "UPDATE account SET role = \(role.rawValue) WHERE key = \(key) RETURNING key", logger: logger)
        for try await _ in rows.decode(String.self) { found = true }
        return found
    }

    func setSuspended(key: String, at: String?) async throws -> Bool {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            var found = false
            for try await _ in try await connection.query(
                "UPDATE account SET suspended_at = \(at) WHERE key = \(key) RETURNING key", logger: logger
            ).decode(String.self) {
                found = true
            }
            guard found else { return false }
            if let at {
                try await connection.query("DELETE FROM session WHERE account_key = \(key)", logger: logger)
                try await connection.query(
                    """
                    UPDATE student_location SET hidden_at = \(at), hidden_reason = \(AccessSQL.suspensionReason),
                        hidden_by = \(AccessSQL.suspension)
                    WHERE unique_key = \(key) AND hidden_at IS NULL
                    """, logger: logger)
            } else {
                try await connection.query(
                    """
                    UPDATE student_location SET hidden_at = NULL, hidden_reason = NULL, hidden_by = NULL
                    WHERE unique_key = \(key) AND hidden_by = \(AccessSQL.suspension)
                    """, logger: logger)
            }
            return true
        }
    }

    func countWrite(accountKey: String, now: Double, window: Double) async throws -> (writes: Int, windowStart: Double)
    {
        if Int(now) % 64 == 0 {
            var bindings = PostgresBindings()
            bindings.append(now)
            try await client.query(
                PostgresQuery(unsafeSQL: AccessSQL.deleteStaleWrites { "$\($0)" }, binds: bindings), logger: logger)
        }
        var bindings = PostgresBindings()
        bindings.append(accountKey)
        bindings.append(now)
        bindings.append(window)
        let rows = try await client.query(
            PostgresQuery(unsafeSQL: AccessSQL.countWrite { "$\($0)" }, binds: bindings), logger: logger)
        for try await (writes, start) in rows.decode((Int, Double).self) { return (writes, start) }
        return (1, now)
    }

    func insert(_ entry: AuditEntry) async throws {
        try await client.query(
            """
            INSERT INTO audit_log (at, actor, action, target, reason)
            VALUES (\(entry.at), \(entry.actor), \(entry.action), \(entry.target), \(entry.reason))
            """, logger: logger)
    }

    func auditEntries(since: String?) async throws -> [AuditEntry] {
        let rows = try await client.query(
            "SELECT at, actor, action, target, reason FROM audit_log WHERE at >= \(since ?? "") ORDER BY id",
            logger: logger)
        var entries: [AuditEntry] = []
        for try await (at, actor, action, target, reason) in rows.decode((String, String, String, String, String?).self)
        {
            entries.append(AuditEntry(at: at, actor: actor, action: action, target: target, reason: reason))
        }
        return entries
    }
}

extension PostgresSchema {
    /// Docs/Access.md's storage facts, idempotent like the rest of the schema.
    static let access =
        [
            "ALTER TABLE student_location ADD COLUMN IF NOT EXISTS hidden_at TEXT",
            "ALTER TABLE student_location ADD COLUMN IF NOT EXISTS hidden_reason TEXT",
            "ALTER TABLE student_location ADD COLUMN IF NOT EXISTS hidden_by TEXT",
            "ALTER TABLE account ADD COLUMN IF NOT EXISTS role TEXT NOT NULL DEFAULT 'student'",
            "ALTER TABLE account ADD COLUMN IF NOT EXISTS suspended_at TEXT",
        ] + AccessSQL.tables(auditID: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
}
