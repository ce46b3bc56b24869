import Foundation
import Logging
import ServerStorage
import PostgresNIO

/// Writes of StudentLocation rows on PostgreSQL: each in a transaction, an owner check under a row lock.
extension PostgresStorage {
    func insert(_ location: StoredLocation) async throws {
        try await insert([location])
    }

    func insert(_ locations: [StoredLocation]) async throws {
        guard !locations.isEmpty else { return }
        try await client.withTransaction(logger: logger) { connection in
            for location in locations { try await self.insert(location, on: connection) }
        }
    }

    func insert(_ location: StoredLocation, on connection: PostgresConnection) async throws {
        var bindings = PostgresBindings()
        bindings.append(location.objectId)
        bindings.append(location.uniqueKey)
        bindings.append(location.firstName)
        bindings.append(location.lastName)
        bindings.append(location.mapString)
        bindings.append(location.mediaURL)
        bindings.append(location.latitude)
        bindings.append(location.longitude)
        bindings.append(location.createdAt)
        bindings.append(location.updatedAt)
        bindings.append(location.hiddenAt)
        bindings.append(location.hiddenReason)
        bindings.append(location.hiddenBy)
        try await connection.query(
            PostgresQuery(
                unsafeSQL:
                    "INSERT INTO student_location (\(AccessSQL.readColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
                binds: bindings), logger: logger)
    }

    func update(objectId: String, changes: LocationChanges, updatedAt: String, owner: String?) async throws -> WriteOutcome {
        try await client.withTransaction(logger: logger) { connection in
            if let refusal = try await self.refusal(objectId: objectId, owner: owner, on: connection) { return refusal }
            let changed = changes.assignments
            var assignments = ["updated_at = $1"]
            for (index, (field, _)) in changed.enumerated() { assignments.append("\(field.column) = $\(index + 2)") }
            let bindings = try Self.bindings([.text(updatedAt)] + changed.map(\.1) + [.text(objectId)])
            try await connection.query(
                PostgresQuery(
                    unsafeSQL: "UPDATE student_location SET \(assignments.joined(separator: ", ")) WHERE object_id = $\(changed.count + 2)",
                    binds: bindings), logger: self.logger)
            return .done
        }
    }

    func delete(objectId: String, owner: String?) async throws -> WriteOutcome {
        try await client.withTransaction(logger: logger) { connection in
            if let refusal = try await self.refusal(objectId: objectId, owner: owner, on: connection) { return refusal }
            try await connection.query("DELETE FROM student_location WHERE object_id = \(objectId)", logger: self.logger)
            return .done
        }
    }

    /// Locks the row and says why it may not be written (`.notFound`, `.notOwner`), or `nil`.
    private func refusal(objectId: String, owner: String?, on connection: PostgresConnection) async throws -> WriteOutcome? {
        let rows = try await connection.query(
            "SELECT unique_key FROM student_location WHERE object_id = \(objectId) FOR UPDATE", logger: logger)
        var found = false
        var currentKey: String?
        for try await (key) in rows.decode(String?.self) {
            found = true
            currentKey = key
        }
        guard found else { return .notFound }
        if let owner, currentKey != owner { return .notOwner }
        return nil
    }
}
