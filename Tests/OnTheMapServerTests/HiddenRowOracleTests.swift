import Foundation
import OnTheMapServer
import ServerTestSupport
import Testing

/// A caller's `$regex` never runs on a row the caller may not see (Docs/Access.md): were it run,
/// how long it took would tell the hidden text, a character at a time (an anonymous
/// `where={"objectId":X,"mapString":{"$regex":"^A((.?)*)*…!"}}` took 672 ms when the hidden text
/// began with "A" and 2 ms when it did not).
///
/// The pattern here, `^(a+)+$`, is exponential on `aaa…a!`: on SQLite a row it runs on ends the
/// query at its budget with 400 "query too expensive" (code 124). So an answer of 200 with no rows
/// shows that the pattern did not run on the hidden row — the same answer, in the same time, for a
/// right guess and a wrong one. (PostgreSQL's regex engine does not backtrack this way, so there
/// the answers show only that the right rows come back; `SQLCompilerTests` shows its guard.)
@Suite struct HiddenRowOracleTests {
    static let text = String(repeating: "a", count: 40) + "!"
    static let exponential = "^(a+)+$"

    @Test(arguments: TestBackend.available)
    func aCallersPatternNeverRunsOnARowHiddenFromThem(backend: TestBackend) async throws {
        let room = try await ChangeLogTests.Class.start(backend, place: Self.text)
        let (server, ada, mod, row) = (room.server, room.ada, room.moderator, room.row)
        defer { Task { await server.stop() } }
        let sqlite = backend == .sqlite

        // Visible, the pattern runs on the row and costs what it costs: the control.
        let visible = try await Self.find(server, row, pattern: Self.exponential, headers: AccessTests.bearer(mod))
        #expect(sqlite ? visible.status == 400 && AccessTests.code(visible) == 124 : visible.status == 200, "\(visible.text)")

        let hide = try await RawHTTP.send(
            "POST", server.baseURL, "\(AccessTests.path)/\(row)/hide", headers: AccessTests.bearer(mod),
            json: #"{"reason":"not a real place"}"#)
        #expect(hide.status == 200)

        // Hidden: an anonymous caller and another student get no row, at once, right guess or wrong.
        _ = try await server.addUser(email: "bob@example.com")
        let bob = try await WriteRulesTests.logIn(server, "bob@example.com")
        for headers in [[:], AccessTests.bearer(bob)] {
            for pattern in [Self.exponential, "^a(a+)+$", "^b(a+)+$"] {
                let reply = try await Self.find(server, row, pattern: pattern, headers: headers)
                #expect(reply.status == 200, "\(pattern): \(reply.text)")
                #expect(reply.results?.isEmpty == true, "\(pattern): \(reply.text)")
            }
        }

        // The owner and a moderator may see the row: their pattern runs on it, as before it was hidden.
        for session in [ada, mod] {
            let reply = try await Self.find(server, row, pattern: Self.exponential, headers: AccessTests.bearer(session))
            #expect(sqlite ? reply.status == 400 && AccessTests.code(reply) == 124 : reply.status == 200, "\(reply.text)")
        }
        // And a pattern that matches finds it for them, not for others.
        let owner = try await Self.find(server, row, pattern: "^a+!$", headers: AccessTests.bearer(ada))
        #expect(AccessTests.ids(try #require(owner.results)) == [row])
        let other = try await Self.find(server, row, pattern: "^a+!$", headers: AccessTests.bearer(bob))
        #expect(other.results?.isEmpty == true)
    }

    /// `where={"objectId":row,"mapString":{"$regex":pattern}}` with `count=1`, as `headers`' caller.
    static func find(_ server: TestServer, _ row: String, pattern: String, headers: [String: String] = [:])
        async throws -> RawHTTP.Reply
    {
        let condition = #"{"objectId":"\#(row)","mapString":{"$regex":"\#(pattern)"}}"#
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let encoded = condition.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return try await RawHTTP.send("GET", server.baseURL, "\(AccessTests.path)?where=\(encoded)&count=1", headers: headers)
    }
}
