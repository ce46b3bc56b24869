@testable import ClassRules
import OnTheMapServer
import ServerStorage
import Testing

/// The table of Docs/Access.md, cell by cell, against the pure rule (`Access`) that every path —
/// REST, the list cache, exports, LiveQuery — asks.
@Suite struct AccessRuleTests {
    static let ada = Caller.account(key: "ada", role: .student)
    static let moderator = Caller.account(key: "mod", role: .moderator)
    static let callers: [Caller] = [.anonymous, .openWriter, ada, moderator]

    static func row(owner: String, hidden: Bool) -> StoredLocation {
        StoredLocation(
            objectId: "r", uniqueKey: owner, createdAt: "2026-01-01T00:00:00.000Z",
            updatedAt: "2026-01-01T00:00:00.000Z",
            hiddenAt: hidden ? "2026-01-02T00:00:00.000Z" : nil, hiddenReason: hidden ? "spam" : nil,
            hiddenBy: hidden ? "mod" : nil)
    }

    @Test func seeing() {
        for caller in Self.callers {
            #expect(Access.maySee(Self.row(owner: "bob", hidden: false), caller), "everyone sees a public row")
        }
        #expect(!Access.maySee(Self.row(owner: "bob", hidden: true), .anonymous))
        #expect(!Access.maySee(Self.row(owner: "bob", hidden: true), .openWriter))
        #expect(!Access.maySee(Self.row(owner: "bob", hidden: true), Self.ada))
        #expect(Access.maySee(Self.row(owner: "ada", hidden: true), Self.ada), "its own, marked hidden")
        #expect(Access.maySee(Self.row(owner: "bob", hidden: true), Self.moderator))
        #expect(Access.visibility(for: .anonymous) == .public && Access.visibility(for: .openWriter) == .public)
        #expect(
            Access.visibility(for: Self.ada) == .publicAndOwn("ada") && Access.visibility(for: Self.moderator) == .all)
    }

    @Test func writing() throws {
        let adas = Self.row(owner: "ada", hidden: false)
        let bobs = Self.row(owner: "bob", hidden: false)
        #expect(throws: AccessRefusal.needsSession) { try Access.checkCreate(uniqueKey: "ada", .anonymous) }
        try Access.checkCreate(uniqueKey: "anyone", .openWriter)
        try Access.checkCreate(uniqueKey: "ada", Self.ada)
        #expect(throws: AccessRefusal.self) { try Access.checkCreate(uniqueKey: "bob", Self.ada) }
        #expect(throws: AccessRefusal.self) { try Access.checkCreate(uniqueKey: "bob", Self.moderator) }
        for write in [LocationWrite.update, .delete] {
            #expect(!Access.mayWrite(write, adas, .anonymous))
            #expect(Access.mayWrite(write, bobs, .openWriter), "the 2015 Parse contract")
            #expect(Access.mayWrite(write, adas, Self.ada) && !Access.mayWrite(write, bobs, Self.ada))
        }
        #expect(!Access.mayWrite(.update, bobs, Self.moderator) && Access.mayWrite(.delete, bobs, Self.moderator))
    }

    @Test func moderating() throws {
        #expect(throws: AccessRefusal.needsSession) { try Access.checkModerate(.anonymous) }
        #expect(throws: AccessRefusal.needsSession) { try Access.checkModerate(.openWriter) }
        #expect(throws: AccessRefusal.self) { try Access.checkModerate(Self.ada) }
        try Access.checkModerate(Self.moderator)
    }
}
