import Foundation
import OnTheMapServer
import ServerAdmin
import ServerTestSupport
import Testing

/// `export` then `import` (and `backup` then `restore`) keep who sees what: a hidden row comes
/// back hidden, with its reason, its time and who hid it (Docs/Access.md), on SQLite and PostgreSQL.
@Suite struct TransferVisibilityTests {
    static let path = "/v1/StudentLocation"

    /// A class with two rows of Ada's, one hidden by a moderator over the API; the ids (hidden, shown).
    static func classWithAHiddenRow(_ server: TestServer) async throws -> (hidden: String, shown: String, moderatorKey: String) {
        let adaKey = try await server.addUser(email: "ada@example.com")
        let moderatorKey = try await server.addUser(email: "mod@example.com")
        _ = try await server.withDatabase { try await $0.setRole(keyOrEmail: moderatorKey, role: "moderator") }
        let ada = try TrustRulesTests.sessionID(try await TrustRulesTests.logIn(server, "ada@example.com"))
        let moderator = try TrustRulesTests.sessionID(try await TrustRulesTests.logIn(server, "mod@example.com"))
        let hidden = try await TrustRulesTests.post(server, session: ada, key: adaKey)
        let shown = try await TrustRulesTests.post(server, session: ada, key: adaKey)
        let hide = try await RawHTTP.send(
            "POST", server.baseURL, "\(path)/\(hidden)/hide", headers: ["Authorization": "Bearer \(moderator)"],
            json: #"{"reason":"a \"street\" address, not a city"}"#)
        #expect(hide.status == 200, "\(hide.text)")
        return (hidden, shown, moderatorKey)
    }

    static func export(_ server: TestServer, _ format: ServerDatabase.TransferFormat) async throws -> Data {
        try await server.withDatabase { db in
            var data = Data()
            _ = try await db.export(format: format) { data.append($0) }
            return data
        }
    }

    /// The objectIds an anonymous caller lists.
    static func publicIds(_ server: TestServer) async throws -> Set<String> {
        let list = try await RawHTTP.send("GET", server.baseURL, path)
        return Set((list.results ?? []).compactMap { $0["objectId"] as? String })
    }

    @Test(arguments: TestBackend.available, ServerDatabase.TransferFormat.allCases)
    func anExportImportsBackWithItsVisibility(backend: TestBackend, format: ServerDatabase.TransferFormat) async throws {
        let source = try await TestServer.start(backend: backend, listCacheSeconds: 0)
        defer { Task { await source.stop() } }
        let (hidden, shown, moderatorKey) = try await Self.classWithAHiddenRow(source)
        let exported = try await Self.export(source, format)
        let text = String(decoding: exported, as: UTF8.self)
        #expect(text.contains(moderatorKey), "who hid the row is in the export")

        let target = try await TestServer.start(backend: backend, listCacheSeconds: 0)
        defer { Task { await target.stop() } }
        let report = try await target.withDatabase { try await $0.importLocations(exported, format: format) }
        #expect(report.imported == 2)
        // Byte for byte the same export: every field and the whole hidden mark came back.
        #expect(try await Self.export(target, format) == exported)
        #expect(try await Self.publicIds(target) == [shown])
        let hiddenRows = try await target.withDatabase { try await $0.locations(account: nil, hiddenOnly: true) }
        #expect(hiddenRows.map(\.objectId) == [hidden])
        #expect(hiddenRows.first?.hiddenReason == #"a "street" address, not a city"#)
    }

    @Test(arguments: TestBackend.available)
    func anOldExportsHiddenFlagIsKept(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend, listCacheSeconds: 0)
        defer { Task { await server.stop() } }
        // What an export wrote before it carried hiddenAt and hiddenBy.
        let file = #"""
            {"results":[
            {"objectId":"HiddenRow1","uniqueKey":"1","latitude":1,"longitude":2,"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-01T00:00:00.000Z","hidden":true,"hiddenReason":"spam"},
            {"objectId":"ShownRow01","uniqueKey":"1","latitude":1,"longitude":2,"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-01T00:00:00.000Z"}
            ]}
            """#
        _ = try await server.withDatabase { try await $0.importLocations(Data(file.utf8), format: .json) }
        #expect(try await Self.publicIds(server) == ["ShownRow01"])
        let hiddenRows = try await server.withDatabase { try await $0.locations(account: nil, hiddenOnly: true) }
        #expect(hiddenRows.map(\.hiddenReason) == ["spam"])
    }

    /// Hidden marks an export never writes are refused with the row's number, and nothing of the
    /// file is imported (was: each of these was imported as a visible row, silently).
    @Test(arguments: TestBackend.available)
    func marksAnExportNeverWritesAreRefused(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend, listCacheSeconds: 0)
        defer { Task { await server.stop() } }
        let row = #""uniqueKey":"1","latitude":1,"longitude":2,"createdAt":"2024-01-01T00:00:00.000Z""#
        let first = #"{"objectId":"FirstRow01",\#(row)}"#
        let json: [(String, String)] = [
            (#""hidden":"true""#, "hidden is not true or false"), (#""hidden":1"#, "hidden is not true or false"),
            (#""hiddenReason":"spam""#, "hiddenReason on a row that is not hidden"),
            (#""hidden":false,"hiddenBy":"1234""#, "hiddenBy on a row that is not hidden"),
            (#""hiddenAt":"yesterday""#, "hiddenAt is not a date"),
        ]
        for (mark, refusal) in json {
            let file = #"{"results":[\#(first),{"objectId":"SecondRow1",\#(row),\#(mark)}]}"#
            await #expect {
                try await server.withDatabase { try await $0.importLocations(Data(file.utf8), format: .json) }
            } throws: { error in
                "\(error)".contains("Row 2 of \"results\": \(refusal)") && "\(error)".contains("Nothing was imported")
            }
        }
        let csv: [String] = [
            "objectId,uniqueKey,latitude,longitude,hidden\nFirstRow01,1,1,2,\nSecondRow1,1,1,2,true\n",
            "objectId,uniqueKey,latitude,longitude,hiddenReason\nFirstRow01,1,1,2,\nSecondRow1,1,1,2,spam\n",
        ]
        for file in csv {
            await #expect(throws: ServerDatabase.TransferError.self) {
                try await server.withDatabase { try await $0.importLocations(Data(file.utf8), format: .csv) }
            }
        }
        let total = try await server.withDatabase { try await $0.locations(account: nil, hiddenOnly: false) }
        #expect(total.isEmpty, "nothing half-imported")
        // What an export writes still imports.
        let good = #"{"results":[\#(first),{"objectId":"SecondRow1",\#(row),"hidden":true,"hiddenReason":"spam"}]}"#
        let report = try await server.withDatabase { try await $0.importLocations(Data(good.utf8), format: .json) }
        #expect(report.imported == 2)
        #expect(try await Self.publicIds(server) == ["FirstRow01"])
    }

    @Test func aRestoreKeepsVisibility() async throws {
        let source = try await TestServer.start(listCacheSeconds: 0)
        defer { Task { await source.stop() } }
        let (_, shown, _) = try await Self.classWithAHiddenRow(source)
        let before = try await Self.export(source, .json)
        let copy = source.directory.appendingPathComponent("copy.sqlite").path
        _ = try SQLiteBackup.backup(source.configuration, to: copy)

        let target = try await TestServer.start(listCacheSeconds: 0)
        await target.server.stop()
        defer { try? FileManager.default.removeItem(at: target.directory) }
        _ = try await SQLiteBackup.restore(target.configuration, from: copy, force: true)
        let restored = try await TestServer.start(listCacheSeconds: 0) { $0.databasePath = target.configuration.databasePath }
        defer { Task { await restored.stop() } }
        #expect(try await Self.export(restored, .json) == before)
        #expect(try await Self.publicIds(restored) == [shown])
    }
}
