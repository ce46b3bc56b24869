import Foundation
import Logging
import ServerStorage

/// Roles, suspension, hidden rows, fair share and the audit log on PostgreSQL (Docs/Access.md).
extension PostgresStorage {
    func insert(_ location: StoredLocation, maxRowsPerOwner: Int) async throws -> Bool {
        try await pool.withTransaction { connection in
            // Concurrent POSTs of one account, on any instance, count one after the other.
            try await connection.execute("SELECT pg_advisory_xact_lock(7345002, hashtext(\(location.uniqueKey ?? "")))")
            let count = try await connection.execute(
                "SELECT COUNT(*) FROM student_location WHERE unique_key = \(location.uniqueKey)"
            ).first?.int(0) ?? 0
            guard count < maxRowsPerOwner else { return false }
            try await self.insert(location, on: connection)
            return true
        }
    }

    func setHidden(objectId: String, mark: HiddenMark?, audit: AuditEntry) async throws -> Bool {
        try await pool.withTransaction { connection in
            let found = try await connection.execute(
                """
                UPDATE student_location SET hidden_at = \(mark?.at), hidden_reason = \(mark?.reason), hidden_by = \(mark?.by)
                WHERE object_id = \(objectId) RETURNING object_id
                """
            ).first != nil
            guard found else { return false }
            try await self.insert(audit, on: connection)
            return true
        }
    }

    func hasHiddenLocations(owner: String) async throws -> Bool {
        try await pool.execute(
            "SELECT 1 FROM student_location WHERE unique_key = \(owner) AND hidden_at IS NOT NULL LIMIT 1"
        ).first != nil
    }

    func setRole(key: String, role: AccountRole, audit: AuditEntry) async throws -> Bool {
        try await pool.withTransaction { connection in
            let found = try await connection.execute("UPDATE account SET role = \(role.rawValue) WHERE key = \(key) RETURNING key").first != nil
            guard found else { return false }
            try await self.insert(audit, on: connection)
            return true
        }
    }

    func setSuspended(key: String, at: String?, audit: AuditEntry) async throws -> Bool {
        try await pool.withTransaction { connection in
            let found = try await connection.execute("UPDATE account SET suspended_at = \(at) WHERE key = \(key) RETURNING key").first != nil
            guard found else { return false }
            if let at {
                try await connection.execute("DELETE FROM session WHERE account_key = \(key)")
                try await connection.execute(
                    """
                    UPDATE student_location SET hidden_at = \(at), hidden_reason = \(AccessSQL.suspensionReason),
                        hidden_by = \(AccessSQL.suspension)
                    WHERE unique_key = \(key) AND hidden_at IS NULL
                    """)
            } else {
                try await connection.execute(
                    """
                    UPDATE student_location SET hidden_at = NULL, hidden_reason = NULL, hidden_by = NULL
                    WHERE unique_key = \(key) AND hidden_by = \(AccessSQL.suspension)
                    """)
            }
            try await self.insert(audit, on: connection)
            return true
        }
    }

    func countWrite(accountKey: String, now: Double, window: Double) async throws -> (writes: Int, windowStart: Double)
    {
        if Int(now) % 64 == 0 {
            try await pool.execute(PGQuery(unsafeSQL: AccessSQL.deleteStaleWrites { "$\($0)" }, binds: [.real(now)]))
        }
        let rows = try await pool.execute(
            PGQuery(unsafeSQL: AccessSQL.countWrite { "$\($0)" }, binds: [.text(accountKey), .real(now), .real(window)]))
        guard let row = rows.first else { return (1, now) }
        return (try row.int(0), try row.double(1))
    }

    /// Writes an audit entry inside the act's own transaction.
    func insert(_ entry: AuditEntry, on connection: PGSession) async throws {
        try await connection.execute(
            """
            INSERT INTO audit_log (at, actor, action, target, reason)
            VALUES (\(entry.at), \(entry.actor), \(entry.action), \(entry.target), \(entry.reason))
            """)
    }

    func auditEntries(since: String?) async throws -> [AuditEntry] {
        try await pool.execute(
            "SELECT at, actor, action, target, reason FROM audit_log WHERE at >= \(since ?? "") ORDER BY id"
        ).rows.map { row in
            AuditEntry(
                at: try row.text(0), actor: try row.text(1), action: try row.text(2), target: try row.text(3),
                reason: try row.optionalText(4))
        }
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
