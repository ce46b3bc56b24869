import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import ServerTestSupport
import StandIn
import Testing

/// Parse LiveQuery against a real `onthemap-server` process, with a client that speaks the
/// documented JSON over a hand-made WebSocket (`LiveQueryTestClient`).
@Suite struct LiveQueryTests {
    @Test func eventsFollowTheRowsBeforeAndAfterEachWrite() async throws {
        try await withServer { server in
            let (session, key) = try await Self.signUp(server, email: "ada@example.com")
            let client = try LiveQueryTestClient(port: server.port)
            client.send(json: ["op": "connect", "applicationId": "onthemap"])
            #expect(await client.next()?["op"] as? String == "connected")
            // Subscription 1: rows in places starting with L, two fields; subscription 2: every row.
            client.send(
                json: [
                    "op": "subscribe", "requestId": 1,
                    "query": ["className": "StudentLocation", "where": ["mapString": ["$regex": "^L"]], "fields": ["mapString"]],
                ])
            #expect(await client.next()?["op"] as? String == "subscribed")
            client.send(json: ["op": "subscribe", "requestId": 2, "query": ["className": "StudentLocation", "where": [:]]])
            #expect(await client.next()?["requestId"] as? Int == 2)

            let objectId = try await Self.post(server, session: session, key: key, mapString: "Lisbon")
            let create = try #require(await client.next())
            #expect(create["op"] as? String == "create" && create["requestId"] as? Int == 1)
            let object = try #require(create["object"] as? [String: Any])
            #expect(object["objectId"] as? String == objectId && object["mapString"] as? String == "Lisbon")
            #expect(object["firstName"] == nil)  // not among the fields
            #expect(await client.next()?["requestId"] as? Int == 2)

            try await Self.put(server, session: session, objectId, #"{"mapString":"London"}"#)
            let update = try #require(await client.next())
            #expect(update["op"] as? String == "update" && update["requestId"] as? Int == 1)
            #expect((update["original"] as? [String: Any])?["mapString"] as? String == "Lisbon")
            #expect((update["object"] as? [String: Any])?["mapString"] as? String == "London")
            #expect(await client.next()?["op"] as? String == "update")  // subscription 2

            try await Self.put(server, session: session, objectId, #"{"mapString":"Paris"}"#)
            let leave = try #require(await client.next())
            #expect(leave["op"] as? String == "leave" && leave["requestId"] as? Int == 1)
            #expect(await client.next()?["requestId"] as? Int == 2)

            try await Self.put(server, session: session, objectId, #"{"mapString":"Lyon"}"#)
            let enter = try #require(await client.next())
            #expect(enter["op"] as? String == "enter" && enter["requestId"] as? Int == 1)
            #expect(await client.next()?["requestId"] as? Int == 2)

            // The current first page over the socket.
            client.send(json: ["op": "query", "requestId": 1])
            let result = try #require(await client.next())
            #expect(result["op"] as? String == "result")
            #expect((result["results"] as? [[String: Any]])?.compactMap { $0["objectId"] as? String } == [objectId])

            let delete = try await RawHTTP.send(
                "DELETE", server.baseURL, "/parse/classes/StudentLocation/\(objectId)", headers: ["Authorization": "Bearer \(session)"])
            #expect(delete.status == 200)
            let deleted = try #require(await client.next())
            #expect(deleted["op"] as? String == "delete" && deleted["requestId"] as? Int == 1)
            #expect(await client.next()?["requestId"] as? Int == 2)

            // Unsubscribed: the next write reaches subscription 2 only (1's event would come first).
            client.send(json: ["op": "unsubscribe", "requestId": 1])
            #expect(await client.next()?["op"] as? String == "unsubscribed")
            _ = try await Self.post(server, session: session, key: key, mapString: "Leeds")
            let after = try #require(await client.next())
            #expect(after["op"] as? String == "create" && after["requestId"] as? Int == 2)
        }
    }

    @Test func badInputGetsAnErrorNeverACrash() async throws {
        try await withServer { server in
            let client = try LiveQueryTestClient(port: server.port)
            client.send("not json")
            #expect(await client.next()?["code"] as? Int == 107)
            client.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation"]])
            #expect(await client.next()?["op"] as? String == "error")  // connect first
            client.send(json: ["op": "connect", "sessionToken": "not-a-session"])
            let refused = try #require(await client.next())
            #expect(refused["op"] as? String == "error" && refused["code"] as? Int == 209)
            client.send(json: ["op": "connect"])
            #expect(await client.next()?["op"] as? String == "connected")
            client.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "_User"]])
            #expect(await client.next()?["code"] as? Int == 119)
            client.send(
                json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": ["$bogus": 1]]])
            #expect(await client.next()?["code"] as? Int == 107)
            client.send(
                json: [
                    "op": "subscribe", "requestId": 1, "sessionToken": "nope",
                    "query": ["className": "StudentLocation", "where": [:]],
                ])
            #expect(await client.next()?["code"] as? Int == 209)
            _ = client.sendFrame(opcode: 0x2, [1, 2, 3])
            #expect(await client.next()?["code"] as? Int == 107)
            client.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": [:]]])
            #expect(await client.next()?["op"] as? String == "subscribed")
            // A message over the size limit closes the socket (1009), and the server lives on.
            client.send(String(repeating: " ", count: 20_000))
            #expect(await client.next() == nil)
            #expect(client.closeCode == 1009)
            // A reserved opcode fails the connection (1002).
            let reserved = try LiveQueryTestClient(port: server.port)
            _ = reserved.sendFrame(opcode: 0x3, [1])
            #expect(await reserved.next() == nil)
            #expect(reserved.closeCode == 1002)
            // So do an unmasked frame and a frame with an RSV bit set, with no extension agreed
            // (RFC 6455 §5.1, §5.2), even a well-formed `connect` (was: both accepted).
            for (masked, bits) in [(false, UInt8(0)), (true, UInt8(0x40)), (true, UInt8(0x10))] {
                let broken = try LiveQueryTestClient(port: server.port)
                _ = broken.sendFrame(opcode: 0x1, Array(#"{"op":"connect"}"#.utf8), masked: masked, reservedBits: bits)
                #expect(await broken.next() == nil, "masked \(masked), bits \(bits)")
                #expect(broken.closeCode == 1002, "masked \(masked), bits \(bits)")
            }
            let again = try LiveQueryTestClient(port: server.port)
            again.send(json: ["op": "connect"])
            #expect(await again.next()?["op"] as? String == "connected")
        }
    }

    /// A subscriber that never reads is closed once its queue is full, while a normal one gets
    /// every one of 10,000 events.
    @Test func aSubscriberThatNeverReadsIsDroppedAndSlowsNobody() async throws {
        try await HeavyTests.exclusively {
            try await withServer(arguments: ["--open-writes", "--live-queue-length", "200"]) { server in
                let stuck = try LiveQueryTestClient(port: server.port)
                stuck.send(json: ["op": "connect"])
                #expect(await stuck.next()?["op"] as? String == "connected")
                stuck.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": [:]]])
                #expect(await stuck.next()?["op"] as? String == "subscribed")

                let reader = try LiveQueryTestClient(port: server.port)
                reader.send(json: ["op": "connect"])
                #expect(await reader.next()?["op"] as? String == "connected")
                reader.send(json: ["op": "subscribe", "requestId": 7, "query": ["className": "StudentLocation", "where": [:]]])
                #expect(await reader.next()?["op"] as? String == "subscribed")

                let total = 10_000
                // About 4 KB an event, 40 MB in all: far more than the kernel's socket buffers hold.
                let padding = String(repeating: "x", count: 990)
                let counting = Task { () -> Int in
                    var seen = 0
                    while seen < total, let message = await reader.next() {
                        if message["op"] as? String == "create" { seen += 1 }
                    }
                    return seen
                }
                let session = RawHTTP.makeSession(connectionsPerHost: 4)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<4 {
                        group.addTask {
                            for index in stride(from: worker, to: total, by: 4) {
                                let reply = try await RawHTTP.send(
                                    "POST", server.baseURL, "/parse/classes/StudentLocation",
                                    json: #"{"uniqueKey":"k\#(index)","firstName":"\#(padding)","lastName":"\#(padding)","mapString":"\#(padding)","mediaURL":"https://\#(padding)","latitude":1,"longitude":2}"#,
                                    using: session)
                                guard reply.status == 201 else { throw TestServerError("POST: \(reply.status)") }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(await counting.value == total)
                // It was dropped: what reached it before ends with the server closing the connection.
                var reached = 0
                while let message = await stuck.next() {
                    if message["op"] as? String == "create" { reached += 1 }
                }
                #expect(stuck.endedByPeer)
                #expect(reached < total / 2)
            }
        }
    }

    /// A client that sends pings (each owed a pong) as fast as it can and never reads: once the
    /// pongs it owes fill the channel, the server stops reading it, so its sends stall long
    /// before 40 MB and the server's memory does not follow the flood.
    @Test func aClientThatSendsButNeverReadsIsNotReadEither() async throws {
        try await HeavyTests.exclusively {
            try await withServer { server in
                let flooder = try LiveQueryTestClient(port: server.port)
                flooder.send(json: ["op": "connect"])
                #expect(await flooder.next()?["op"] as? String == "connected")
                let pid = server.processIdentifier
                let before = try #require(ProcessMemory.megabytes(pid, "VmRSS"))
                // A send that cannot go out within 3 s is the event: the server stopped reading.
                var timeout = timeval(tv_sec: 3, tv_usec: 0)
                setsockopt(flooder.socket.descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                let mask: [UInt8] = [1, 2, 3, 4]
                let ping = [0x89, 0x80 | 125] + mask + (0..<125).map { mask[$0 % 4] }
                let chunk = Array([[UInt8]](repeating: ping, count: 1000).joined())
                var sent = 0
                while sent < 40_000_000 {
                    let count = chunk.withUnsafeBytes {
                        Glibc.send(flooder.socket.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    guard count > 0 else { break }
                    sent += count
                }
                let after = try #require(ProcessMemory.megabytes(pid, "VmRSS"))
                #expect(sent < 40_000_000, "the server read every ping: \(sent) bytes")
                #expect(after - before < 16, "the server went from \(before) MB to \(after) MB")
            }
        }
    }

    /// Two processes on one PostgreSQL database: a POST through one reaches a subscriber on the other.
    @Test(.enabled(if: TestBackend.postgresURL != nil)) func aWriteOnOneInstanceReachesASubscriberOnAnother() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try await TestBackend.postgres.makeDatabase(in: directory)
        defer { Task { await TestBackend.postgres.dropDatabase(database) } }
        let first = try await ServerProcess.start(database: database)
        defer { first.terminate() }
        let second = try await ServerProcess.start(database: database)
        defer { second.terminate() }

        let client = try LiveQueryTestClient(port: second.port)
        client.send(json: ["op": "connect"])
        #expect(await client.next()?["op"] as? String == "connected")
        client.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": [:]]])
        #expect(await client.next()?["op"] as? String == "subscribed")

        let (session, key) = try await Self.signUp(first, email: "grace@example.com")
        let objectId = try await Self.post(first, session: session, key: key, mapString: "Arlington")
        let create = try #require(await client.next())
        #expect(create["op"] as? String == "create")
        #expect((create["object"] as? [String: Any])?["objectId"] as? String == objectId)
        try await Self.put(first, session: session, objectId, #"{"mapString":"New York"}"#)
        let update = try #require(await client.next())
        #expect(update["op"] as? String == "update")
        #expect((update["original"] as? [String: Any])?["mapString"] as? String == "Arlington")
    }

    @Test func socketsOverTheLimitsAreToldWhyAndClosed() async throws {
        try await withServer(arguments: ["--live-connections-per-address", "2", "--live-subscriptions", "2"]) { server in
            let first = try LiveQueryTestClient(port: server.port)
            let second = try LiveQueryTestClient(port: server.port)
            let third = try LiveQueryTestClient(port: server.port)
            let refused = try #require(await third.next())
            #expect(refused["op"] as? String == "error" && refused["reconnect"] as? Bool == true)
            #expect(await third.next() == nil)
            #expect(third.closeCode == 1013)
            first.send(json: ["op": "connect"])
            #expect(await first.next()?["op"] as? String == "connected")
            for id in 1...3 {
                first.send(json: ["op": "subscribe", "requestId": id, "query": ["className": "StudentLocation", "where": [:]]])
            }
            #expect(await first.next()?["op"] as? String == "subscribed")
            #expect(await first.next()?["op"] as? String == "subscribed")
            #expect(await first.next()?["code"] as? Int == 124)
            // A socket closed makes room for the next.
            _ = second
            second.socket.shutdownBoth()
            let fourth = try await poll(until: .now + .seconds(60), {
                let client = try LiveQueryTestClient(port: server.port)
                client.send(json: ["op": "connect"])
                return await client.next()?["op"] as? String
            }) { $0 == "connected" }
            #expect(fourth == "connected")
        }
    }

    @Test func aSocketThatDoesNotAnswerPingsIsClosed() async throws {
        try await withServer(arguments: ["--live-ping-seconds", "0.5"]) { server in
            let client = try LiveQueryTestClient(port: server.port)
            client.send(json: ["op": "connect"])
            // Reads nothing (so answers no ping) for two intervals and more.
            try await Task.sleep(for: .seconds(2))
            var ops: [String] = []
            while let message = await client.next() { ops.append(message["op"] as? String ?? "?") }
            #expect(ops == ["connected"])
            #expect(client.endedByPeer || client.closeCode != nil)
        }
    }

    // MARK: Helpers

    private func withServer(arguments: [String] = [], _ body: (ServerProcess) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await ServerProcess.start(
            database: directory.appendingPathComponent("server.sqlite").path, arguments: arguments)
        defer { server.terminate() }
        try await body(server)
    }

    private static func signUp(_ server: ServerProcess, email: String) async throws -> (session: String, key: String) {
        let signUp = try await RawHTTP.send(
            "POST", server.baseURL, "/v1/users",
            json: #"{"email":"\#(email)","password":"correct horse","first_name":"Ada","last_name":"Lovelace"}"#)
        #expect(signUp.status == 201)
        let login = try await RawHTTP.send(
            "POST", server.baseURL, "/api/session", json: #"{"udacity":{"username":"\#(email)","password":"correct horse"}}"#)
        let body = try #require(login.json(prefixed: true) as? [String: Any])
        let session = try #require((body["session"] as? [String: Any])?["id"] as? String)
        let key = try #require((body["account"] as? [String: Any])?["key"] as? String)
        return (session, key)
    }

    private static func post(_ server: ServerProcess, session: String, key: String, mapString: String) async throws -> String {
        let post = try await RawHTTP.send(
            "POST", server.baseURL, "/parse/classes/StudentLocation", headers: ["Authorization": "Bearer \(session)"],
            json: #"{"uniqueKey":"\#(key)","firstName":"Ada","lastName":"Lovelace","mapString":"\#(mapString)","mediaURL":"https://ada.dev","latitude":38.7,"longitude":-9.1}"#)
        #expect(post.status == 201)
        return try #require((post.json() as? [String: Any])?["objectId"] as? String)
    }

    private static func put(_ server: ServerProcess, session: String, _ objectId: String, _ json: String) async throws {
        let put = try await RawHTTP.send(
            "PUT", server.baseURL, "/parse/classes/StudentLocation/\(objectId)", headers: ["Authorization": "Bearer \(session)"],
            json: json)
        #expect(put.status == 200)
    }
}
