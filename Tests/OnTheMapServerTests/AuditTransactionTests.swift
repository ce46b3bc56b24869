@testable import ClassRules
import Foundation
import GRDB
@_spi(WritePath) import ServerStorage
import Testing

/// A moderation act and its audit entry commit in one transaction (Docs/Access.md): when the
/// database refuses the entry, the act is not committed either; the acts that are not audited
/// are not touched by it.
@Suite struct AuditTransactionTests {
    @Test func anAuditedActCommitsWithItsEntryOrNotAtAll() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sqlite").path
        let storage = try SQLiteStorage(path: path)
        try await storage.migrate()
        _ = try await storage.migrateEmailKeys()
        defer { Task { await storage.close() } }
        let writes = ClassWrites(storage: storage, limits: FairShareLimits(maxRowsPerAccount: 5, maxWritesPerMinute: 30))
        let theOperator = Caller.operatorAtCommandLine()
        let time = "2026-01-01T00:00:00.000Z"
        try await writes.importLocations(
            ["x", "y"].map { StoredLocation(objectId: $0, uniqueKey: "ada", createdAt: time, updatedAt: time) },
            try Access.permit(.importLocations, by: theOperator))
        try await writes.createAccount(
            Account(key: "ada", email: "ada@example.com", passwordHash: "", firstName: "Ada", lastName: "L", createdAt: time),
            try Access.permit(.createAccount, by: .anonymous))

        let acts: [(String, () async throws -> Void)] = [
            ("hide", { try await writes.setHidden(objectId: "x", reason: "spam", try Access.permit(.setHidden(objectId: "x"), by: theOperator)) }),
            ("role", { try await writes.setRole(key: "ada", role: .moderator, try Access.permit(.setRole(key: "ada"), by: theOperator)) }),
            ("suspend", {
                try await writes.setSuspended(key: "ada", suspended: true, reason: "spam", try Access.permit(.setSuspended(key: "ada"), by: theOperator))
            }),
            ("delete-location", { try await writes.deleteLocation(objectId: "x", try Access.permit(.deleteLocation(objectId: "x"), by: theOperator)) }),
            ("delete-account", { _ = try await writes.deleteAccount(key: "ada", try Access.permit(.deleteAccount(key: "ada"), by: theOperator)) }),
        ]

        // The database refuses every audit entry: no act is committed without its entry.
        let queue = try DatabaseQueue(path: path)
        try await queue.write {
            try $0.execute(sql: "CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit refused'); END")
        }
        for (action, act) in acts {
            await #expect(throws: (any Error).self, "\(action)") { try await act() }
        }
        let x = try await storage.location(objectId: "x")
        #expect(x != nil && x?.isHidden == false, "not hidden, not deleted")
        let ada = try await storage.account(key: "ada")
        #expect(ada?.role == .student && ada?.suspendedAt == nil, "role and suspension unchanged, account there")
        #expect(try await storage.auditEntries(since: nil).isEmpty)
        // An act that is not audited (an owner deleting its own row) does not depend on the log.
        let own = try Access.permit(.deleteLocation(objectId: "y"), by: Caller.account(key: "ada", role: .student))
        try await writes.deleteLocation(objectId: "y", own)
        #expect(try await storage.location(objectId: "y") == nil)

        // With the log writable again, each act commits with its entry.
        try await queue.write { try $0.execute(sql: "DROP TRIGGER refuse_audit") }
        for (_, act) in acts { try await act() }
        #expect(try await storage.auditEntries(since: nil).map(\.action) == acts.map(\.0))
        #expect(try await storage.account(key: "ada") == nil)
    }
}
