import Foundation
import OnTheMapServer
import ServerTestSupport
import Testing

/// The fan-out runs off the write path (Docs/Architecture.md, "The change log"). In the serial
/// server-process pass: the test holds the fan-out's thread of the cooperative pool, which beside
/// the parallel suites (two threads on 2 cores) would starve them.
@Suite struct LiveQueryFanOutTests {
    /// The fan-out runs in the follower's task: a write is answered while every subscriber's
    /// events are still being decided (was: in the writer's request, under one lock).
    @Test func aWriteIsAnsweredWhileItsFanOutIsStillRunning() async throws {
        let fanOut = HeldGate()
        let server = try await TestServer.start(openWrites: true) { configuration in
            configuration.liveQueryVisibility = { row, _ in
                if row.mapString == "Slow" { fanOut.enterAndWait() }
                return true
            }
        }
        defer { Task { await server.stop() } }
        defer { fanOut.release() }
        let client = try LiveQueryTestClient(port: server.server.port)
        client.send(json: ["op": "connect"])
        #expect(await client.next()?["op"] as? String == "connected")
        client.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": [:]]])
        #expect(await client.next()?["op"] as? String == "subscribed")
        let post = Task {
            try await RawHTTP.send(
                "POST", server.baseURL, "/parse/classes/StudentLocation",
                json: #"{"uniqueKey":"k","firstName":"A","lastName":"B","mapString":"Slow","latitude":1,"longitude":2}"#)
        }
        let waiting = try await poll(until: .now + .seconds(60), { fanOut.isWaiting }, isDone: { $0 })
        #expect(waiting, "the fan-out reached the row")
        let reply = try await post.value
        let answeredWhileHeld = fanOut.isWaiting
        #expect(reply.status == 201)
        #expect(answeredWhileHeld, "the POST was answered while its fan-out was held")
        fanOut.release()
        #expect(await client.next()?["op"] as? String == "create")
    }
}

/// A gate the fan-out waits at (on its own thread, at most a minute) until the test releases it.
private final class HeldGate: @unchecked Sendable {
    private let lock = NSLock()
    private let semaphore = DispatchSemaphore(value: 0)
    private var waiting = false
    private var released = false

    func enterAndWait() {
        let wait = lock.withLock { () -> Bool in
            waiting = !released
            return waiting
        }
        guard wait else { return }
        _ = semaphore.wait(timeout: .now() + 60)
        lock.withLock { waiting = false }
    }

    /// Whether the fan-out is waiting here now.
    var isWaiting: Bool { lock.withLock { waiting } }

    func release() {
        let first = lock.withLock { () -> Bool in
            defer { released = true }
            return !released
        }
        if first { semaphore.signal() }
    }
}

