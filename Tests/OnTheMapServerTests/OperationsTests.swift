import Foundation
import OnTheMapServer
import ServerAdmin
import ServerTestSupport
import Testing

/// `user list | reset-password | delete`, `export` and `import`, through `ServerDatabase`.
@Suite struct OperationsTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/student-locations-2015.json")

    static func logIn(_ server: TestServer, _ email: String, _ password: String) async throws -> RawHTTP.Reply {
        try await RawHTTP.send(
            "POST", server.baseURL, "/v1/session", json: #"{"udacity":{"username":"\#(email)","password":"\#(password)"}}"#)
    }

    static func export(_ server: TestServer, _ format: ServerDatabase.TransferFormat) async throws -> Data {
        try await server.withDatabase { database in
            var data = Data()
            _ = try await database.export(format: format) { data.append($0) }
            return data
        }
    }

    static func importLocations(
        _ server: TestServer, _ data: Data, _ format: ServerDatabase.TransferFormat
    ) async throws -> ServerDatabase.ImportReport {
        try await server.withDatabase { try await $0.importLocations(data, format: format) }
    }

    @Test(arguments: TestBackend.available)
    func theSeedDumpImportsOnceAndRoundTripsThroughBothFormats(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        let dump = try Data(contentsOf: Self.fixture)
        let first = try await Self.importLocations(server, dump, .json)
        #expect(first == .init(read: 157, imported: 157, skippedCoordinates: 0, skippedDuplicates: 0, skippedMalformed: 0))
        let again = try await Self.importLocations(server, dump, .json)
        #expect(again.imported == 0 && again.skippedDuplicates == 157)
        // The API serves them as the dump had them.
        let row = try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation/sfECEbbwj7")
        let object = try #require(row.json() as? [String: Any])
        #expect(object["firstName"] as? String == "Ivan")
        #expect(object["createdAt"] as? String == "2015-04-30T01:12:44.127Z")

        for format in ServerDatabase.TransferFormat.allCases {
            let exported = try await Self.export(server, format)
            let copy = try await TestServer.start(backend: backend)
            let report = try await Self.importLocations(copy, exported, format)
            #expect(report.imported == 157, "\(format)")
            #expect(try await Self.export(copy, format) == exported, "\(format)")
            await copy.stop()
        }
    }

    @Test func unusableRowsAreSkippedAndCounted() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let json = """
            {"results":[
              {"objectId":"aaaaaaaaa1","uniqueKey":1234,"firstName":"John","latitude":37.3,"longitude":-122.0},
              {"objectId":"aaaaaaaaa2","latitude":"37.3","longitude":"-122.0"},
              {"objectId":"aaaaaaaaa3","latitude":91,"longitude":0},
              {"objectId":"aaaaaaaaa4","latitude":1},
              {"objectId":"aaaaaaaaa5","latitude":1,"longitude":2,"firstName":{"x":1}},
              "not a row",
              {"objectId":"aaaaaaaaa1","latitude":1,"longitude":2},
              {"latitude":1,"longitude":2,"createdAt":"yesterday"}
            ]}
            """
        let report = try await Self.importLocations(server, Data(json.utf8), .json)
        #expect(report == .init(read: 8, imported: 3, skippedCoordinates: 2, skippedDuplicates: 1, skippedMalformed: 2))
        let row = try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation/aaaaaaaaa1")
        #expect((row.json() as? [String: Any])?["uniqueKey"] as? String == "1234")
    }

    @Test func csvKeepsHostileTextIntact() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let hostile = ["a,b", "say \"hi\"", "two\nlines", "=HYPERLINK(\"x\")", "-cmd", "ünïcødé 🗺️", "'quoted"]
        let rows = hostile.enumerated().map { index, text in
            #"{"objectId":"hostile000\#(index)","uniqueKey":"k","firstName":\#(Self.jsonString(text)),"latitude":-1.5,"longitude":2}"#
        }
        _ = try await Self.importLocations(server, Data(#"{"results":[\#(rows.joined(separator: ","))]}"#.utf8), .json)
        let csv = try await Self.export(server, .csv)
        #expect(String(decoding: csv, as: UTF8.self).contains("'=HYPERLINK"))
        let copy = try await TestServer.start()
        defer { Task { await copy.stop() } }
        let report = try await Self.importLocations(copy, csv, .csv)
        #expect(report.imported == hostile.count)
        #expect(try await Self.export(copy, .json) == (try await Self.export(server, .json)))
    }

    static func jsonString(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    @Test(arguments: TestBackend.available)
    func usersAreListedResetAndDeleted(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com", firstName: "Ada", lastName: "Lovelace")
        _ = try await server.addUser(email: "bob@example.com")
        #expect(try await server.withDatabase { try await $0.users() }.map(\.email) == ["ada@example.com", "bob@example.com"])

        let before = try await Self.logIn(server, "ada@example.com", "correct horse")
        let session = try #require(((before.json(prefixed: true) as? [String: Any])?["session"] as? [String: Any])?["id"] as? String)
        #expect(try await server.withDatabase { try await $0.resetPassword(keyOrEmail: "ADA@example.com", password: "new battery staple") } == adaKey)
        #expect(try await Self.logIn(server, "ada@example.com", "correct horse").status == 403)
        #expect(try await Self.logIn(server, "ada@example.com", "new battery staple").status == 200)
        let write = try await RawHTTP.send(
            "POST", server.baseURL, "/v1/StudentLocation", headers: ["Authorization": "Bearer \(session)"],
            json: #"{"uniqueKey":"\#(adaKey)","latitude":1,"longitude":2}"#)
        #expect(write.status == 403, "the old session ended")
        await #expect(throws: ServerDatabase.AccountError.self) {
            try await server.withDatabase { try await $0.resetPassword(keyOrEmail: "ada@example.com", password: "short") }
        }

        _ = try await Self.importLocations(
            server,
            Data(#"{"results":[{"uniqueKey":"\#(adaKey)","latitude":1,"longitude":2},{"uniqueKey":"other","latitude":1,"longitude":2}]}"#.utf8),
            .json)
        let deleted = try await server.withDatabase { try await $0.deleteUser(keyOrEmail: adaKey) }
        #expect(deleted.key == adaKey && deleted.locationsDeleted == 1)
        #expect(try await server.locationCount() == 1)
        #expect(try await Self.logIn(server, "ada@example.com", "new battery staple").status == 403)
        #expect(try await server.withDatabase { try await $0.users() }.map(\.email) == ["bob@example.com"])
        await #expect(throws: ServerDatabase.AccountError.self) {
            try await server.withDatabase { try await $0.deleteUser(keyOrEmail: "nobody@example.com") }
        }
    }
}
