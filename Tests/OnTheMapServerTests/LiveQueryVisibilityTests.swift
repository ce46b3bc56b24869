import Foundation
import ServerTestSupport
import Testing

@testable import OnTheMapServer

/// The one seam Access plugs into: asked per event and subscriber, and a row it refuses is never
/// sent — a row that becomes invisible leaves, one that becomes visible enters.
@Suite struct LiveQueryVisibilityTests {
    @Test func aRowTheSubscriberMayNotSeeIsNeverSent() async throws {
        let asked = AskedKeys()
        let server = try await TestServer.start(openWrites: true) { configuration in
            configuration.liveQueryVisibility = { row, subscriber in
                asked.add(subscriber)
                return row.mapString != "Secret" || row.uniqueKey == subscriber
            }
        }
        defer { Task { await server.stop() } }
        let client = try LiveQueryTestClient(port: server.server.port)
        client.send(json: ["op": "connect"])
        #expect(await client.next()?["op"] as? String == "connected")
        client.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": [:]]])
        #expect(await client.next()?["op"] as? String == "subscribed")

        let hidden = try await Self.post(server, mapString: "Secret")
        let shown = try await Self.post(server, mapString: "Lisbon")
        let first = try #require(await client.next())
        #expect(first["op"] as? String == "create")
        #expect((first["object"] as? [String: Any])?["objectId"] as? String == shown)  // not `hidden`

        try await Self.put(server, shown, #"{"mapString":"Secret"}"#)
        let leave = try #require(await client.next())
        #expect(leave["op"] as? String == "leave")
        #expect((leave["object"] as? [String: Any])?["mapString"] as? String == "Lisbon")  // as it was seen
        try await Self.put(server, hidden, #"{"mapString":"Porto"}"#)
        let enter = try #require(await client.next())
        #expect(enter["op"] as? String == "enter")
        #expect((enter["object"] as? [String: Any])?["objectId"] as? String == hidden)

        client.send(json: ["op": "query", "requestId": 1])
        let result = try #require(await client.next())
        #expect((result["results"] as? [[String: Any]])?.compactMap { $0["objectId"] as? String } == [hidden])
        #expect(asked.keys == [nil])  // no session: asked with no account
    }

    private static func post(_ server: TestServer, mapString: String) async throws -> String {
        let reply = try await RawHTTP.send(
            "POST", server.baseURL, "/parse/classes/StudentLocation",
            json: #"{"uniqueKey":"k","firstName":"A","lastName":"B","mapString":"\#(mapString)","latitude":1,"longitude":2}"#)
        #expect(reply.status == 201)
        return try #require((reply.json() as? [String: Any])?["objectId"] as? String)
    }

    private static func put(_ server: TestServer, _ objectId: String, _ json: String) async throws {
        let reply = try await RawHTTP.send("PUT", server.baseURL, "/parse/classes/StudentLocation/\(objectId)", json: json)
        #expect(reply.status == 200)
    }
}

private final class AskedKeys: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: Set<String?> = []
    func add(_ key: String?) { lock.withLock { _ = seen.insert(key) } }
    var keys: Set<String?> { lock.withLock { seen } }
}
