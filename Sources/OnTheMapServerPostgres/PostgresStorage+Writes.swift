import Foundation
import Logging
import ServerStorage

/// Writes of StudentLocation rows on PostgreSQL: each in a transaction, an owner check under a row lock.
extension PostgresStorage {
    func insert(_ location: StoredLocation) async throws {
        try await insert([location])
    }

    func insert(_ locations: [StoredLocation]) async throws {
        guard !locations.isEmpty else { return }
        try await pool.withTransaction { connection in
            for location in locations { try await self.insert(location, on: connection) }
        }
    }

    func insert(_ location: StoredLocation, on connection: PGSession) async throws {
        try await connection.execute(
            """
            INSERT INTO student_location (\(unsafeSQL: AccessSQL.readColumns))
            VALUES (\(location.objectId), \(location.uniqueKey), \(location.firstName), \(location.lastName), \(location.mapString),
                \(location.mediaURL), \(location.latitude), \(location.longitude), \(location.createdAt), \(location.updatedAt),
                \(location.hiddenAt), \(location.hiddenReason), \(location.hiddenBy))
            """)
    }

    func update(objectId: String, changes: LocationChanges, updatedAt: String, owner: String?) async throws -> WriteOutcome {
        try await pool.withTransaction { connection in
            if let refusal = try await self.refusal(objectId: objectId, owner: owner, on: connection) { return refusal }
            let changed = changes.assignments
            var assignments = ["updated_at = $1"]
            for (index, (field, _)) in changed.enumerated() { assignments.append("\(field.column) = $\(index + 2)") }
            let binds = Self.values([.text(updatedAt)] + changed.map(\.1) + [.text(objectId)])
            try await connection.execute(
                PGQuery(
                    unsafeSQL: "UPDATE student_location SET \(assignments.joined(separator: ", ")) WHERE object_id = $\(changed.count + 2)",
                    binds: binds))
            return .done
        }
    }

    func delete(objectId: String, owner: String?, audit: AuditEntry?) async throws -> WriteOutcome {
        try await pool.withTransaction { connection in
            if let refusal = try await self.refusal(objectId: objectId, owner: owner, on: connection) { return refusal }
            try await connection.execute("DELETE FROM student_location WHERE object_id = \(objectId)")
            if let audit { try await self.insert(audit, on: connection) }
            return .done
        }
    }

    /// Locks the row and says why it may not be written (`.notFound`, `.notOwner`), or `nil`.
    private func refusal(objectId: String, owner: String?, on connection: PGSession) async throws -> WriteOutcome? {
        guard let row = try await connection.execute(
            "SELECT unique_key FROM student_location WHERE object_id = \(objectId) FOR UPDATE"
        ).first else { return .notFound }
        if let owner, try row.optionalText(0) != owner { return .notOwner }
        return nil
    }
}
