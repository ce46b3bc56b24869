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
                asked.add(subscriber.accountKey)
                return row.mapString != "Secret" || row.uniqueKey == subscriber.accountKey
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

/// LiveQuery asks the server's one rule (Docs/Access.md): a row a moderator hides leaves every
/// subscription that may no longer see it, a moderator's subscription keeps it (marked), and a
/// hidden row's later changes are never sent to anyone else.
@Suite struct LiveQueryAccessTests {
    @Test func aHiddenRowLeavesOthersAndIsNeverBroadcast() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com")
        _ = try await server.withDatabase {
            try await $0.addUser(
                email: "mod@example.com", password: "correct horse", firstName: "M", lastName: "Od", role: "moderator")
        }
        let ada = try await WriteRulesTests.logIn(server, "ada@example.com")
        let mod = try await WriteRulesTests.logIn(server, "mod@example.com")

        let anonymous = try LiveQueryTestClient(port: server.server.port)
        let moderator = try LiveQueryTestClient(port: server.server.port)
        for (client, token) in [(anonymous, nil), (moderator, mod)] as [(LiveQueryTestClient, String?)] {
            var connect: [String: Any] = ["op": "connect"]
            if let token { connect["sessionToken"] = token }
            client.send(json: connect)
            #expect(await client.next()?["op"] as? String == "connected")
            client.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": [:]]])
            #expect(await client.next()?["op"] as? String == "subscribed")
        }

        let row = try await AccessTests.post(server, key: adaKey, session: ada)
        #expect(await anonymous.next()?["op"] as? String == "create")
        #expect(await moderator.next()?["op"] as? String == "create")

        let hide = try await RawHTTP.send(
            "POST", server.baseURL, "\(AccessTests.path)/\(row)/hide", headers: AccessTests.bearer(mod),
            json: #"{"reason":"not a real place"}"#)
        #expect(hide.status == 200)
        let leave = try #require(await anonymous.next())
        #expect(leave["op"] as? String == "leave")
        #expect((leave["object"] as? [String: Any])?["hidden"] == nil, "the row as the subscriber last saw it")
        let update = try #require(await moderator.next())
        #expect(update["op"] as? String == "update")
        #expect((update["object"] as? [String: Any])?["hidden"] as? Bool == true)

        // The owner changes the hidden row: the moderator hears of it, the anonymous socket does
        // not — its next event is the next visible row's create.
        let put = try await RawHTTP.send(
            "PUT", server.baseURL, "\(AccessTests.path)/\(row)", headers: AccessTests.bearer(ada),
            json: #"{"mapString":"Porto"}"#)
        #expect(put.status == 200)
        #expect(await moderator.next()?["op"] as? String == "update")
        let bobKey = try await server.addUser(email: "bob@example.com")
        let bob = try await WriteRulesTests.logIn(server, "bob@example.com")
        let visible = try await AccessTests.post(server, key: bobKey, session: bob, place: "Oslo")
        let next = try #require(await anonymous.next())
        #expect(next["op"] as? String == "create")
        #expect((next["object"] as? [String: Any])?["objectId"] as? String == visible)
    }
}
