import ClassRules
import Foundation
import Testing

@testable import ServerLiveQuery

/// A socket checks the sessions it holds before it queues anything: once the first of them has
/// ended, it is sent the 209 and closed, and nothing else — with no timer at all (was: a timer
/// per account and expiry, at most 10,000; once they were taken, an expired moderator's socket
/// still got a hidden row's update 70 s after its session ended).
@Suite struct LiveQuerySessionEndTests {
    @Test func aSocketWhoseSessionEndedIsSentNothingButTheEnd() throws {
        let socket = RecordingSocket()
        let connection = LiveQueryConnection(clientId: 1, address: "192.0.2.1", queueLength: 100, socket: socket.socket)
        let now = Date().timeIntervalSince1970
        connection.markConnected(caller: .anonymous, sessionToken: "own", sessionExpiresAt: now + 3600)
        #expect(socket.timers == [now + 3600])
        #expect(connection.enqueue("before"))

        // A subscription with a session of its own, which has just ended; the socket's timer is
        // asked for the earlier end, but no timer fires here: the check before the send ends it.
        let query = LiveQueryRequest.Query(predicate: .always, fields: nil)
        connection.setSubscription(1, .init(query: query, caller: .anonymous, sessionToken: "other", sessionExpiresAt: now - 1))
        #expect(socket.timers.last == now - 1)
        #expect(!connection.enqueue("after"))
        #expect(!connection.enqueue("later"))
        #expect(socket.messages.count == 2)
        #expect(socket.messages.first == "before")
        let ended = try #require(socket.messages.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(ended["op"] as? String == "error" && ended["code"] as? Int == 209)
        #expect(socket.closes == 1)
        #expect(connection.subscriptions().isEmpty)
    }

    @Test func theTimerEndsAnIdleSocketAndFollowsTheEarliestSession() {
        let socket = RecordingSocket()
        let connection = LiveQueryConnection(clientId: 1, address: "192.0.2.1", queueLength: 100, socket: socket.socket)
        let now = Date().timeIntervalSince1970
        connection.markConnected(caller: .anonymous, sessionToken: nil, sessionExpiresAt: nil)
        #expect(socket.timers == [nil])
        let query = LiveQueryRequest.Query(predicate: .always, fields: nil)
        connection.setSubscription(1, .init(query: query, caller: .anonymous, sessionToken: "a", sessionExpiresAt: now + 60))
        connection.setSubscription(2, .init(query: query, caller: .anonymous, sessionToken: "b", sessionExpiresAt: now + 30))
        #expect(socket.timers.last == now + 30)
        connection.setSubscription(2, nil)  // its session no longer held: the timer follows the other
        #expect(socket.timers.last == now + 60)
        connection.endIfSessionEnded()  // a timer that fired early (or for a session since let go)
        #expect(socket.closes == 0)
        connection.setSubscription(1, .init(query: query, caller: .anonymous, sessionToken: "a", sessionExpiresAt: now - 1))
        connection.endIfSessionEnded()
        #expect(socket.closes == 1)
    }
}

/// A `LiveQueryConnection.Socket` that records what it is asked.
private final class RecordingSocket: @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [String] = []
    private var asked: [Double?] = []
    private var closed = 0

    var messages: [String] { lock.withLock { sent } }
    var timers: [Double?] { lock.withLock { asked } }
    var closes: Int { lock.withLock { closed } }

    var socket: LiveQueryConnection.Socket {
        .init(
            send: { message, written in
                self.lock.withLock { self.sent.append(message) }
                written()
            },
            overflowed: {}, goingAway: {},
            sessionEnded: { _ in self.lock.withLock { self.closed += 1 } },
            sessionEndsAt: { end in self.lock.withLock { self.asked.append(end) } })
    }
}
