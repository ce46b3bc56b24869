@testable import ClassRules
import Foundation
import ServerStorage
import TestPatience
import Testing

@testable import ServerLiveQuery

/// Each address's subscriptions are matched on a lane of their own, off the change follower, in
/// CPU time bounded per write (was: every subscription of every socket in the one follower, so
/// 4 sockets × 8 `$regex` from one address made each write cost 3.2 s and every subscriber's
/// events, a hide's `leave` too, came 3, 6, 9, 12 s late).
@Suite struct LiveQueryLaneTests {
    static let row = StoredLocation(
        objectId: "r1", mapString: String(repeating: "a", count: 1000) + "!", createdAt: "", updatedAt: "")
    static func created(_ row: StoredLocation = row) -> LocationChange { LocationChange(before: nil, after: row) }
    static let everything = LiveQueryRequest.Query(predicate: .always, fields: nil)
    /// Allowed (no repeated group), and still slow on a thousand a's and a '!': each match is
    /// stopped at its 50 ms.
    static let slow = LiveQueryRequest.Query(
        predicate: .regex(.mapString, pattern: "^a*a*a*a*$", options: ""), fields: nil)

    static func connection(_ id: Int, _ address: String, _ socket: EventSocket, _ queries: [LiveQueryRequest.Query])
        -> LiveQueryConnection
    {
        let connection = LiveQueryConnection(clientId: id, address: address, queueLength: 1000, socket: socket.socket)
        connection.markConnected(caller: .anonymous, sessionToken: nil, sessionExpiresAt: nil)
        for (index, query) in queries.enumerated() {
            connection.setSubscription(index + 1, .init(query: query, caller: .anonymous, sessionToken: nil))
        }
        return connection
    }

    @Test func anAddressWhoseMatchingHangsDoesNotHoldUpAnother() async throws {
        // The attacker's matching is held inside its visibility check until the end of the test:
        // the classmate's event can only arrive if it is matched elsewhere.
        let held = DispatchSemaphore(value: 0)
        defer { held.signal() }
        let attacker = Caller.account(key: "attacker", role: .student)
        let hub = LiveQueryHub(visibility: { _, caller in
            if caller.accountKey == attacker.accountKey { _ = held.wait(timeout: .now() + .seconds(600)) }
            return true
        })
        let (attacking, classmate) = (EventSocket(), EventSocket())
        let slowOne = Self.connection(1, "198.51.100.7", attacking, [])
        slowOne.setSubscription(1, .init(query: Self.everything, caller: attacker, sessionToken: nil))
        hub.add(slowOne)
        hub.add(Self.connection(2, "192.0.2.1", classmate, [Self.everything]))

        hub.publish(Self.created())
        let event = try #require(await classmate.next())
        #expect(event["op"] as? String == "create")
        #expect(attacking.count == 0, "the attacker's lane is still held")
    }

    @Test func anAddressOverItsBudgetIsToldAndClosedAndTheOthersGetTheirEvents() async throws {
        // A budget in CPU time that even a machine too loaded to give each stopped match (50 ms
        // of wall clock) more than a sliver of CPU passes within the 32 slow subscriptions.
        let hub = LiveQueryHub(visibility: { _, _ in true }, matchingBudget: .milliseconds(5))
        let attackers = (0..<4).map { _ in EventSocket() }
        for (index, socket) in attackers.enumerated() {
            let connection = Self.connection(index + 1, "198.51.100.7", socket, Array(repeating: Self.slow, count: 8))
            socket.connection = connection
            hub.add(connection)
        }
        let classmate = EventSocket()
        hub.add(Self.connection(9, "192.0.2.1", classmate, [Self.everything]))

        hub.publish(Self.created())
        #expect(try #require(await classmate.next())["op"] as? String == "create")
        for socket in attackers {
            let last = try #require(await socket.closed())
            #expect(last["op"] as? String == "error" && last["code"] as? Int == 124, "\(last)")
            #expect((last["error"] as? String)?.contains("more than 5 ms to match one write") == true)
        }
        // The budget ended all four after the first stopped match or so (was: 32, 1.6 s a write).
        #expect(attackers.map(\.count).reduce(0, +) == 4, "only the errors: no event was worth the wait")

        // The next write goes to the classmate alone, and the attacker's lane is gone.
        hub.publish(Self.created(StoredLocation(objectId: "r2", mapString: "Lisbon", createdAt: "", updatedAt: "")))
        #expect(try #require(await classmate.next())["op"] as? String == "create")
        for socket in attackers { hub.remove(socket.connection!) }
    }

    @Test func oneAddressesEventsKeepTheirWriteOrder() async throws {
        let hub = LiveQueryHub(visibility: { _, _ in true })
        let socket = EventSocket()
        hub.add(Self.connection(1, "192.0.2.1", socket, [Self.everything]))
        for index in 0..<200 {
            hub.publish(Self.created(StoredLocation(objectId: "r\(index)", createdAt: "", updatedAt: "")))
        }
        var seen: [String] = []
        while seen.count < 200, let event = await socket.next() {
            seen.append((event["object"] as? [String: Any])?["objectId"] as? String ?? "?")
        }
        #expect(seen == (0..<200).map { "r\($0)" })
    }
}

/// A `LiveQueryConnection.Socket` whose messages a test awaits one by one.
final class EventSocket: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    private var read = 0
    private var isClosed = false
    private var waiter: CheckedContinuation<Void, Never>?
    weak var connection: LiveQueryConnection?

    var count: Int { lock.withLock { messages.count } }

    private func change(_ update: () -> Void) {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            update()
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume()
    }

    var socket: LiveQueryConnection.Socket {
        .init(
            send: { message, written in
                self.change { self.messages.append(message) }
                written()
            },
            overflowed: { self.change { self.isClosed = true } }, goingAway: {},
            sessionEnded: { _ in self.change { self.isClosed = true } }, sessionEndsAt: { _ in })
    }

    /// The next message as JSON, nil once the socket is closed with nothing more, or after
    /// `Patience`.
    func next() async -> [String: Any]? {
        let deadline = ContinuousClock.now + Patience.forAnEvent
        while ContinuousClock.now < deadline {
            let (message, closed) = lock.withLock { () -> (String?, Bool) in
                guard read < messages.count else { return (nil, isClosed) }
                read += 1
                return (messages[read - 1], false)
            }
            if let message { return try? JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any] }
            if closed { return nil }
            await withCheckedContinuation { continuation in
                let ready = lock.withLock { () -> Bool in
                    if read < messages.count || isClosed { return true }
                    waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
        return nil
    }

    /// The last message once the socket is closed.
    func closed() async -> [String: Any]? {
        var last: [String: Any]?
        while let message = await next() { last = message }
        return last
    }
}
