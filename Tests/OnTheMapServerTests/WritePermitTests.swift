@testable import ClassRules
import Foundation
@_spi(WritePath) import ServerStorage
import Testing

/// Every write of the one write path takes the rule's permit (`Access.permit`), and a permit is
/// for one act and one target (Docs/Access.md, "The rule on every path").
@Suite struct WritePermitTests {
    static let ada = Caller.account(key: "ada", role: .student)
    static let moderator = Caller.account(key: "mod", role: .moderator)
    static let theOperator = Caller.operatorAtCommandLine()

    /// The operator's acts are the operator's alone; an account is deleted by itself; anyone signs up.
    @Test func theRuleIssuesPermitsAsDocsAccessSays() throws {
        let operatorsOwn: [WriteAct] = [.setRole(key: "ada"), .setSuspended(key: "ada"), .setPassword(key: "ada"), .importLocations, .fillSynthetic, .restoreDatabase(from: "/backups/class.sqlite")]
        for act in operatorsOwn {
            for caller in [Caller.anonymous, .openWriter, Self.ada, Self.moderator] {
                #expect(throws: AccessRefusal.self, "\(act) by \(caller)") { try Access.permit(act, by: caller) }
            }
            #expect(try Access.permit(act, by: Self.theOperator).act == act)
        }
        #expect(throws: AccessRefusal.self) { try Access.permit(.deleteAccount(key: "bob"), by: Self.ada) }
        #expect(throws: AccessRefusal.self) { try Access.permit(.deleteAccount(key: "ada"), by: Self.moderator) }
        _ = try Access.permit(.deleteAccount(key: "ada"), by: Self.ada)
        _ = try Access.permit(.deleteAccount(key: "ada"), by: Self.theOperator)
        _ = try Access.permit(.createAccount, by: .anonymous)
        #expect(throws: AccessRefusal.needsSession) { try Access.permit(.deleteLocation(objectId: "x"), by: .anonymous) }
        #expect(throws: AccessRefusal.self) { try Access.permit(.setHidden(objectId: "x"), by: Self.ada) }
        #expect(throws: AccessRefusal.self) { try Access.permit(.createLocation(uniqueKey: "bob"), by: Self.ada) }
        _ = try Access.permit(.setHidden(objectId: "x"), by: Self.theOperator)
    }

    /// A permit to delete row X deletes no row Y, a permit to create a row for `ada` creates none
    /// for `bob`, a permit to hide a row deletes nothing; used for its own act and target it works.
    @Test func aPermitIsForItsActAndTargetOnly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-permit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = try SQLiteStorage(path: directory.appendingPathComponent("server.sqlite").path)
        try await storage.migrate()
        defer { Task { await storage.close() } }
        let writes = ClassWrites(storage: storage, limits: FairShareLimits(maxRowsPerAccount: 5, maxWritesPerMinute: 30))
        let time = "2026-01-01T00:00:00.000Z"
        try await writes.importLocations(
            ["x", "y"].map { StoredLocation(objectId: $0, uniqueKey: "ada", createdAt: time, updatedAt: time) },
            try Access.permit(.importLocations, by: Self.theOperator))

        let deleteX = try Access.permit(.deleteLocation(objectId: "x"), by: Self.ada)
        await #expect(throws: WriteRefusal.self) { try await writes.deleteLocation(objectId: "y", deleteX) }
        await #expect(throws: WriteRefusal.self) {
            try await writes.updateLocation(objectId: "x", LocationChanges(mapString: "Oslo"), deleteX)
        }
        let createForAda = try Access.permit(.createLocation(uniqueKey: "ada"), by: Self.ada)
        await #expect(throws: WriteRefusal.self) { try await writes.createLocation(LocationChanges(uniqueKey: "bob"), createForAda) }
        let hideX = try Access.permit(.setHidden(objectId: "x"), by: Self.moderator)
        await #expect(throws: WriteRefusal.self) { try await writes.deleteLocation(objectId: "x", hideX) }
        await #expect(throws: WriteRefusal.self) { try await writes.setHidden(objectId: "y", reason: "spam", hideX) }
        let untouched = try await storage.locations(ListQuery(limit: 10)).rows
        #expect(Set(untouched.map(\.objectId)) == ["x", "y"] && untouched.allSatisfy { !$0.isHidden })

        try await writes.deleteLocation(objectId: "x", deleteX)
        _ = try await writes.createLocation(LocationChanges(uniqueKey: "ada"), createForAda)
        #expect(try await storage.location(objectId: "x") == nil)
        #expect(try await storage.location(objectId: "y") != nil)
    }
}
