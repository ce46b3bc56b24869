import Foundation
import GRDB

/// Roles, suspension, hidden rows, fair share and the audit log on SQLite (Docs/Access.md).
extension SQLiteStorage {
    /// Migration `v5-access`: the hidden mark, roles, suspension, write counts, audit log.
    static let accessMigration =
        [
            "ALTER TABLE student_location ADD COLUMN hidden_at TEXT",
            "ALTER TABLE student_location ADD COLUMN hidden_reason TEXT",
            "ALTER TABLE student_location ADD COLUMN hidden_by TEXT",
            "ALTER TABLE account ADD COLUMN role TEXT NOT NULL DEFAULT 'student'",
            "ALTER TABLE account ADD COLUMN suspended_at TEXT",
        ] + AccessSQL.tables(auditID: "INTEGER PRIMARY KEY AUTOINCREMENT")

    public func insert(_ location: StoredLocation, maxRowsPerOwner: Int) async throws -> Bool {
        try await pool.write { db in
            // One writer at a time: the count and the insert cannot interleave with another POST.
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM student_location WHERE unique_key = ?",
                    arguments: [location.uniqueKey]) ?? 0
            guard count < maxRowsPerOwner else { return false }
            try Self.insert(db, [location])
            return true
        }
    }

    public func setHidden(objectId: String, mark: HiddenMark?, audit: AuditEntry) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE student_location SET hidden_at = ?, hidden_reason = ?, hidden_by = ? WHERE object_id = ?",
                arguments: [mark?.at, mark?.reason, mark?.by, objectId])
            guard db.changesCount > 0 else { return false }
            try Self.insert(audit, db)
            return true
        }
    }

    public func hasHiddenLocations(owner: String) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM student_location WHERE unique_key = ? AND hidden_at IS NOT NULL LIMIT 1",
                arguments: [owner]) ?? false
        }
    }

    public func setRole(key: String, role: AccountRole, audit: AuditEntry) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "UPDATE account SET role = ? WHERE key = ?", arguments: [role.rawValue, key])
            guard db.changesCount > 0 else { return false }
            try Self.insert(audit, db)
            return true
        }
    }

    public func setSuspended(key: String, at: String?, audit: AuditEntry) async throws -> Bool {
        try await pool.write { db in
            try db.execute(sql: "UPDATE account SET suspended_at = ? WHERE key = ?", arguments: [at, key])
            guard db.changesCount > 0 else { return false }
            if let at {
                try db.execute(sql: "DELETE FROM session WHERE account_key = ?", arguments: [key])
                try db.execute(
                    sql: """
                        UPDATE student_location SET hidden_at = ?, hidden_reason = ?, hidden_by = ?
                        WHERE unique_key = ? AND hidden_at IS NULL
                        """, arguments: [at, AccessSQL.suspensionReason, AccessSQL.suspension, key])
            } else {
                try db.execute(
                    sql: """
                        UPDATE student_location SET hidden_at = NULL, hidden_reason = NULL, hidden_by = NULL
                        WHERE unique_key = ? AND hidden_by = ?
                        """, arguments: [key, AccessSQL.suspension])
            }
            try Self.insert(audit, db)
            return true
        }
    }

    public func countWrite(accountKey: String, now: Double, window: Double) async throws -> (writes: Int, windowStart: Double)
    {
        try await pool.write { db in
            if Int(now) % 64 == 0 { try db.execute(sql: AccessSQL.deleteStaleWrites { "?\($0)" }, arguments: [now]) }
            let row = try Row.fetchOne(
                db.cachedStatement(sql: AccessSQL.countWrite { "?\($0)" }), arguments: [accountKey, now, window])
            return (row?["writes"] ?? 1, row?["window_start"] ?? now)
        }
    }

    /// Writes an audit entry inside the act's own write transaction.
    static func insert(_ entry: AuditEntry, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO audit_log (at, actor, action, target, reason) VALUES (?, ?, ?, ?, ?)",
            arguments: [entry.at, entry.actor, entry.action, entry.target, entry.reason])
    }

    public func auditEntries(since: String?) async throws -> [AuditEntry] {
        try await pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT at, actor, action, target, reason FROM audit_log WHERE at >= ? ORDER BY id",
                arguments: [since ?? ""]
            ).map {
                AuditEntry(
                    at: $0["at"], actor: $0["actor"], action: $0["action"], target: $0["target"], reason: $0["reason"])
            }
        }
    }
}
