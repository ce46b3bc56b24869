import Foundation
import GRDB
import ServerTestSupport
import Testing

@testable import OnTheMapServer
@_spi(WritePath) @testable import ServerStorage

/// Parse's query language over six known rows, table-driven.
@Suite struct QueryTests {
    static func stamp(_ second: Int) -> String { "2015-01-01T00:00:0\(second).000Z" }

    static let rows: [StoredLocation] = [
        StoredLocation(
            objectId: "a", uniqueKey: "k1", firstName: "Ada", lastName: "Lovelace", mapString: "London, UK",
            mediaURL: "https://ada.dev", latitude: 51.5, longitude: -0.12, createdAt: stamp(1), updatedAt: stamp(1)),
        StoredLocation(
            objectId: "b", uniqueKey: "k2", firstName: "Alan", lastName: "Turing", mapString: "Manchester",
            mediaURL: "alan.com", latitude: 53.48, longitude: -2.24, createdAt: stamp(2), updatedAt: stamp(2)),
        StoredLocation(
            objectId: "c", uniqueKey: "k1", firstName: "Ada", lastName: "Lovelace", mapString: "Paris", mediaURL: "",
            latitude: 48.85, longitude: 2.35, createdAt: stamp(3), updatedAt: stamp(3)),
        StoredLocation(
            objectId: "d", uniqueKey: "1234", firstName: "John", lastName: "Doe", mapString: "Mountain View, CA",
            mediaURL: "https://udacity.com", latitude: 37.38, longitude: -122.08, createdAt: stamp(4), updatedAt: stamp(4)),
        StoredLocation(
            objectId: "e", uniqueKey: "k3", firstName: nil, lastName: "Nameless", mapString: "Tokyo", mediaURL: nil,
            latitude: 35.68, longitude: 139.69, createdAt: stamp(5), updatedAt: stamp(5)),
        StoredLocation(
            objectId: "f", uniqueKey: "k4", firstName: "Grace", lastName: "Hopper", mapString: "Arlington, VA",
            mediaURL: "https://navy.mil", latitude: 38.88, longitude: -77.1, createdAt: stamp(6), updatedAt: stamp(6)),
    ]

    static func start(_ backend: TestBackend, maxLimit: Int = 1000) async throws -> TestServer {
        let server = try await TestServer.start(backend: backend, openWrites: true, maxLimit: maxLimit)
        let storage = try await ServerApplication.openStorage(server.configuration)
        try await storage.insert(rows)
        await storage.close()
        return server
    }

    struct Case: Sendable, CustomStringConvertible {
        var query: String
        var expected: [String]
        var path = "/parse/classes/StudentLocation"
        var description: String { query }
    }

    static let cases: [Case] = [
        Case(query: "", expected: ["a", "b", "c", "d", "e", "f"]),
        Case(query: "order=-updatedAt", expected: ["f", "e", "d", "c", "b", "a"]),
        Case(query: "order=updatedAt", expected: ["a", "b", "c", "d", "e", "f"]),
        Case(query: "order=lastName,-updatedAt", expected: ["d", "f", "c", "a", "e", "b"]),
        Case(query: "order=-updatedAt&limit=2", expected: ["f", "e"]),
        Case(query: "order=-updatedAt&limit=2&skip=2", expected: ["d", "c"]),
        Case(query: "limit=0", expected: []),
        Case(query: "skip=10", expected: []),
        Case(query: #"where={"uniqueKey":"k1"}&order=updatedAt"#, expected: ["a", "c"]),
        Case(query: "uniqueKey=k1&order=updatedAt", expected: ["a", "c"], path: "/v1/StudentLocation"),
        Case(query: #"where={"uniqueKey":1234}"#, expected: ["d"]),
        Case(query: #"where={"latitude":{"$gt":40}}&order=updatedAt"#, expected: ["a", "b", "c"]),
        Case(query: #"where={"latitude":{"$gte":51.5}}&order=updatedAt"#, expected: ["a", "b"]),
        Case(query: #"where={"latitude":{"$lt":38}}&order=updatedAt"#, expected: ["d", "e"]),
        Case(query: #"where={"latitude":{"$lte":37.38}}"#, expected: ["d", "e"]),
        Case(query: #"where={"latitude":{"$gt":36,"$lt":50}}"#, expected: ["c", "d", "f"]),
        Case(query: #"where={"uniqueKey":{"$ne":"k1"}}"#, expected: ["b", "d", "e", "f"]),
        Case(query: #"where={"firstName":{"$ne":"Ada"}}"#, expected: ["b", "d", "e", "f"]),
        Case(query: #"where={"uniqueKey":{"$in":["k2","k4"]}}"#, expected: ["b", "f"]),
        Case(query: #"where={"uniqueKey":{"$nin":["k1","k2"]}}"#, expected: ["d", "e", "f"]),
        Case(query: #"where={"firstName":{"$exists":false}}"#, expected: ["e"]),
        Case(query: #"where={"mediaURL":{"$exists":true}}"#, expected: ["a", "b", "c", "d", "f"]),
        Case(query: #"where={"mapString":{"$regex":"^m"}}"#, expected: []),
        Case(query: #"where={"mapString":{"$regex":"^m","$options":"i"}}"#, expected: ["b", "d"]),
        Case(query: #"where={"mediaURL":{"$regex":"^https://"}}"#, expected: ["a", "d", "f"]),
        Case(query: #"where={"$or":[{"uniqueKey":"k2"},{"lastName":"Hopper"}]}"#, expected: ["b", "f"]),
        Case(query: #"where={"$and":[{"latitude":{"$gt":40}},{"uniqueKey":"k1"}]}"#, expected: ["a", "c"]),
        Case(query: #"where={"$nor":[{"uniqueKey":"k1"},{"firstName":"Alan"}]}"#, expected: ["d", "e", "f"]),
        Case(query: #"where={"$nor":[{"firstName":"Ada"}]}"#, expected: ["b", "d", "e", "f"]),
        Case(query: #"where={"updatedAt":{"$gt":{"__type":"Date","iso":"2015-01-01T00:00:03.000Z"}}}"#, expected: ["d", "e", "f"]),
        Case(query: #"where={"createdAt":{"$lte":{"__type":"Date","iso":"2015-01-01T00:00:02Z"}}}"#, expected: ["a", "b"]),
        Case(query: #"where={"nonexistent":"x"}"#, expected: []),
        Case(query: #"where={"nonexistent":{"$exists":false}}"#, expected: ["a", "b", "c", "d", "e", "f"]),
        Case(query: #"where={"firstName":null}"#, expected: ["e"]),
        Case(query: #"where={"mapString":"Mountain View, CA"}"#, expected: ["d"]),
        Case(query: #"where={"mapString":"Mountain+View,+CA"}"#, expected: ["d"]),
        Case(query: #"where={"uniqueKey":"k1' OR '1'='1"}"#, expected: []),
        Case(query: #"where={"latitude":{"$gt":"abc"}}"#, expected: []),
        Case(query: #"where={"latitude":"51.5"}"#, expected: []),
        Case(query: #"where={"latitude":{"$ne":"x"}}"#, expected: ["a", "b", "c", "d", "e", "f"]),
        Case(query: #"where={"latitude":{"$in":[51.5,"53.48",true]}}"#, expected: ["a"]),
    ]

    static func get(_ server: TestServer, _ path: String, _ query: String) async throws -> RawHTTP.Reply {
        let encoded = query.split(separator: "&").map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1)
            let value = parts.count > 1 ? String(parts[1]) : ""
            // Keep '+' as sent so the test can check that it decodes as a space, as Parse did.
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~+,"))
            return "\(parts[0])=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        return try await RawHTTP.send("GET", server.baseURL, path + (encoded.isEmpty ? "" : "?" + encoded))
    }

    @Test(arguments: TestBackend.available, cases)
    func answers(backend: TestBackend, query: Case) async throws {
        let server = try await Self.start(backend)
        defer { Task { await server.stop() } }
        let reply = try await Self.get(server, query.path, query.query)
        #expect(reply.status == 200, "\(reply.text)")
        let results = reply.results
        #expect(results?.compactMap { $0["objectId"] as? String } == query.expected)
    }

    @Test(arguments: TestBackend.available)
    func countAndKeys(backend: TestBackend) async throws {
        let server = try await Self.start(backend)
        defer { Task { await server.stop() } }
        let counted = try #require(try await Self.get(server, "/v1/StudentLocation", "count=1&limit=1").json() as? [String: Any])
        #expect(counted["count"] as? Int == 6)
        #expect((counted["results"] as? [Any])?.count == 1)
        let zero = try #require(try await Self.get(server, "/v1/StudentLocation", "count=1&limit=0").json() as? [String: Any])
        #expect(zero["count"] as? Int == 6)
        let keyed = try #require(
            (try await Self.get(server, "/v1/StudentLocation", "keys=firstName&order=updatedAt&limit=1").json() as? [String: Any])?["results"]
                as? [[String: Any]])
        #expect(keyed.first.map { Set($0.keys) } == ["objectId", "firstName", "createdAt", "updatedAt"])
    }

    @Test(arguments: TestBackend.available)
    func maxLimitCapsThePage(backend: TestBackend) async throws {
        let server = try await Self.start(backend, maxLimit: 3)
        defer { Task { await server.stop() } }
        let results = try await Self.get(server, "/v1/StudentLocation", "limit=500").results
        #expect(results?.count == 3)
    }

    struct BadQuery: Sendable, CustomStringConvertible {
        var query: String
        var code: Int
        var message: String
        var path = "/parse/classes/StudentLocation"
        var description: String { query }
    }

    static let badQueries: [BadQuery] = [
        BadQuery(query: "foo=1", code: 102, message: "Invalid parameter for query: foo"),
        BadQuery(query: "uniqueKey=k1", code: 102, message: "Invalid parameter for query: uniqueKey"),
        BadQuery(query: #"where={"1abc":1}"#, code: 105, message: "Invalid key name: 1abc"),
        BadQuery(query: #"where={"a;drop":1}"#, code: 105, message: "Invalid key name: a;drop"),
        BadQuery(query: "limit=abc", code: 102, message: "Invalid limit: abc"),
        BadQuery(query: "skip=-1", code: 102, message: "Invalid skip: -1"),
        BadQuery(query: "where=notjson", code: 107, message: "invalid JSON in where"),
        BadQuery(query: "where=[1]", code: 102, message: "where must be a JSON object"),
        BadQuery(query: #"where={"$or":{}}"#, code: 102, message: "bad $or format - use an array value"),
        BadQuery(query: #"where={"$where":"1"}"#, code: 107, message: "bad constraint: $where"),
        BadQuery(query: #"where={"mapString":{"$regex":"("}}"#, code: 102, message: "bad $regex: not a valid regular expression"),
        BadQuery(query: #"where={"mapString":{"$regex":"a","$options":"q"}}"#, code: 102, message: "bad $options value; use a string of i, m, x, s"),
        BadQuery(query: #"where={"uniqueKey":{"$in":"k1"}}"#, code: 107, message: "bad constraint: $in takes an array"),
        BadQuery(query: #"where={"firstName":{"$exists":"yes"}}"#, code: 107, message: "bad constraint: $exists takes true or false"),
    ]

    @Test(arguments: TestBackend.available, badQueries)
    func refuses(backend: TestBackend, bad: BadQuery) async throws {
        let server = try await Self.start(backend)
        defer { Task { await server.stop() } }
        let reply = try await Self.get(server, bad.path, bad.query)
        #expect(reply.status == 400)
        let body = reply.json() as? [String: Any]
        #expect(body?["code"] as? Int == bad.code, "\(reply.text)")
        #expect(body?["error"] as? String == bad.message)
    }

    @Test func orderTypoIsCaughtNotIgnored() async throws {
        let server = try await Self.start(.sqlite)
        defer { Task { await server.stop() } }
        let reply = try await Self.get(server, "/v1/StudentLocation", "order=-updateAt")
        #expect(reply.status == 400)
        #expect((reply.json() as? [String: Any])?["code"] as? Int == 102)
        #expect(((reply.json() as? [String: Any])?["error"] as? String)?.hasPrefix("Invalid order key: updateAt") == true)
    }

    /// A NUL in a value is refused on both databases: each takes values as C strings, which a NUL
    /// cuts short (SQLite then answered the rows of the text before it), and PostgreSQL's text
    /// cannot hold one.
    @Test(arguments: TestBackend.available)
    func aNULInAValueIsRefusedNeverCutShort(backend: TestBackend) async throws {
        let server = try await Self.start(backend)
        defer { Task { await server.stop() } }
        let prefix = try await Self.get(server, "/v1/StudentLocation", #"where={"uniqueKey":"k1"}"#)
        #expect(prefix.results?.isEmpty == false, "the control: rows of the value before the NUL")
        for query in [#"where={"uniqueKey":"k1\u0000x"}"#, #"where={"uniqueKey":{"$in":["k1\u0000"]}}"#] {
            let reply = try await Self.get(server, "/v1/StudentLocation", query)
            #expect(reply.status == 400, "\(query): \(reply.text)")
            let body = reply.json() as? [String: Any]
            #expect(body?["code"] as? Int == 102)
            #expect(body?["error"] as? String == "bad value: a NUL character")
        }
    }

    @Test(arguments: TestBackend.available)
    func hostileStringsRoundTripAsData(backend: TestBackend) async throws {
        let server = try await Self.start(backend)
        defer { Task { await server.stop() } }
        let nasty = "\u{1B}]0;pwned\u{07}\u{1B}[31mred\u{202E}\u{9B}\"\\ 東京 🎉 \(String(repeating: "x", count: 900))"
        let body = try JSONSerialization.data(withJSONObject: [
            "uniqueKey": "k9", "firstName": nasty, "latitude": 1.0, "longitude": 2.0,
        ])
        let created = try await RawHTTP.send(
            "POST", server.baseURL.appendingPathComponent("v1/StudentLocation"), headers: ["Content-Type": "application/json"],
            body: body)
        #expect(created.status == 201)
        let reply = try await Self.get(server, "/v1/StudentLocation", #"where={"uniqueKey":"k9"}"#)
        #expect(!reply.body.contains(0x1B), "escape bytes are JSON-escaped on the wire")
        let row = reply.results?.first
        #expect(row?["firstName"] as? String == nasty)
    }
}

/// The acceptance check: a million rows, and the main query is served by the index.
@Suite struct QueryPlanTests {
    @Test(.enabled(if: TestBackend.postgresURL != nil)) func postgresServesTheNewestFromTheIndexToo() async throws {
        let server = try await TestServer.start(backend: .postgres)
        defer { Task { await server.stop() } }
        let plan = try await server.withDatabase { database in
            try await database.seedSynthetic(count: 200_000)
            return try await database.mainQueryPlan()
        }
        #expect(plan.contains { $0.contains("Index Scan Backward using student_location_updated") }, "\(plan)")
        #expect(!plan.contains { $0.contains("Sort") }, "\(plan)")
    }

    @Test func newestHundredOfAMillionRowsUsesTheIndex() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let storage = try SQLiteStorage(path: server.configuration.databasePath)
        try await storage.fillSynthetic(count: 1_000_000)
        #expect(try await storage.locationCount() == 1_000_000)
        let plan = try await server.withDatabase { try await $0.mainQueryPlan() }
        #expect(plan.contains { $0.contains("USING INDEX student_location_updated") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        await storage.close()

        let reply = try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation?limit=100&order=-updatedAt")
        let rows = try #require(reply.results)
        #expect(rows.count == 100)
        let stamps = rows.compactMap { $0["updatedAt"] as? String }
        #expect(stamps == stamps.sorted(by: >))
    }
}
