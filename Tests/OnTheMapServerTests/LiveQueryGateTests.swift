import ClassRules
import Foundation
import ServerTestSupport
import TestPatience
import Testing

@testable import OnTheMapServer
import ServerConfig
@testable import ServerHTTP
@testable import ServerLiveQuery
import ServerSessions
@_spi(WritePath) @testable import ServerStorage

/// A socket's `query` op passes the REST list's expensive-query gate (was: it skipped the gate, so
/// six anonymous sockets looping catastrophic `query`s slowed the app's list to 1.8 s while the
/// same load over REST got 503).
@Suite struct LiveQueryGateTests {
    @Test func anExpensiveQueryOpWaitsForTheRESTGatesSlot() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sqlite").path
        let storage = try SQLiteStorage(path: path)
        try await storage.migrate()
        defer { Task { await storage.close() } }
        let gate = ExpensiveQueryGate(slots: 1)
        var configuration = ServerConfiguration(databasePath: path)
        configuration.liveQueryVisibility = { _, _ in true }
        let sessions = SessionAuthority(
            storage: storage, writes: ClassWrites(storage: storage, limits: configuration.fairShare), configuration: configuration)
        // As the server wires it: the socket runs its expensive queries in the REST list's gate.
        let live = ServerApplication.liveQueryServer(
            storage: storage, configuration: configuration, sessions: sessions, expensiveQueries: gate)
        let sent = SentMessages()
        let connection = LiveQueryConnection(
            clientId: 1, address: "192.0.2.1", queueLength: 100,
            socket: .init(
                send: { message, written in sent.add(message); written() }, overflowed: {}, goingAway: {}, sessionEnded: { _ in },
                sessionEndsAt: { _ in }))
        await live.handle(#"{"op":"connect"}"#, connection)
        await live.handle(
            #"{"op":"subscribe","requestId":1,"query":{"className":"StudentLocation","where":{"mapString":{"$regex":"Lis"}}}}"#,
            connection)
        #expect(sent.ops == ["connected", "subscribed"])

        // A REST list holds the one slot: the socket's expensive `query` is refused as REST's would be.
        let held = Held()
        let holder = Task { try await gate.run { await held.hold() } }
        #expect(try await poll(until: .now + Patience.forAnEvent, { held.isHolding }, isDone: { $0 }))
        await live.handle(#"{"op":"query","requestId":1}"#, connection)
        #expect(sent.ops.last == "error")
        #expect(sent.last?["code"] as? Int == 155)

        held.release()
        _ = try await holder.value
        await live.handle(#"{"op":"query","requestId":1}"#, connection)
        #expect(sent.ops.last == "result")
    }
}

private final class SentMessages: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [[String: Any]] = []

    func add(_ text: String) {
        let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        lock.withLock { messages.append(object) }
    }

    var ops: [String] { lock.withLock { messages.compactMap { $0["op"] as? String } } }
    var last: [String: Any]? { lock.withLock { messages.last } }
}

/// Holds the gate's slot until released.
private final class Held: @unchecked Sendable {
    private let lock = NSLock()
    private var holding = false
    private var continuation: CheckedContinuation<Void, Never>?
    private var released = false

    func hold() async {
        await withCheckedContinuation { continuation in
            let resumeNow = lock.withLock { () -> Bool in
                holding = true
                if released { return true }
                self.continuation = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    var isHolding: Bool { lock.withLock { holding } }

    func release() {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            released = true
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume()
    }
}
