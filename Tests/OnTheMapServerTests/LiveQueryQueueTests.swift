import Foundation
import Testing

@testable import ServerLiveQuery

/// A socket's queue is bounded in bytes, for the socket and for all the sockets of its address,
/// not only in messages (was: 19 sockets that did not read held 29 MB per write of a 15.6 KB row,
/// and the server grew from 54 to 223 MB).
@Suite struct LiveQueryQueueTests {
    static let row = String(repeating: "x", count: 15_600)

    @Test func aSocketPastItsBytesIsDroppedAndGivesThemBack() {
        let queues = AddressQueues(limit: .max)
        let socket = HoldingSocket()
        let connection = LiveQueryConnection(
            clientId: 1, address: "192.0.2.1", queueLength: 1000, queueBytes: 100_000, addressQueues: queues, socket: socket.socket)
        var sent = 0
        while connection.enqueue(Self.row) { sent += 1 }
        #expect(sent == 6, "100,000 bytes hold six rows of 15,600")
        #expect(socket.overflows == 1)
        #expect(queues.queued(for: "192.0.2.1") == 6 * 15_600)
        socket.writeAll()  // the socket closes: what it held is given back
        #expect(queues.queued(for: "192.0.2.1") == 0)
    }

    @Test func anAddressSharesOneBudgetOverItsSockets() {
        let queues = AddressQueues(limit: 200_000)
        let sockets = (0..<3).map { _ in HoldingSocket() }
        let connections = sockets.enumerated().map { index, socket in
            LiveQueryConnection(
                clientId: index, address: "2001:db8::/64", queueLength: 1000, queueBytes: 100_000, addressQueues: queues,
                socket: socket.socket)
        }
        let other = HoldingSocket()
        let elsewhere = LiveQueryConnection(
            clientId: 9, address: "198.51.100.7", queueLength: 1000, queueBytes: 100_000, addressQueues: queues, socket: other.socket)
        var sent = [0, 0, 0]
        for (index, connection) in connections.enumerated() {
            while connection.enqueue(Self.row) { sent[index] += 1 }
        }
        #expect(sent == [6, 6, 0], "the third socket gets nothing of the address's 200,000 bytes: \(sent)")
        #expect(sockets.map(\.overflows) == [1, 1, 1])
        #expect(elsewhere.enqueue(Self.row), "another address has its own share")
        #expect(other.overflows == 0)
    }
}

/// A `LiveQueryConnection.Socket` that holds every message unwritten until told.
private final class HoldingSocket: @unchecked Sendable {
    private let lock = NSLock()
    private var held: [@Sendable () -> Void] = []
    private var overflowed = 0

    var overflows: Int { lock.withLock { overflowed } }

    func writeAll() {
        for written in lock.withLock({ defer { held = [] }; return held }) { written() }
    }

    var socket: LiveQueryConnection.Socket {
        .init(
            send: { _, written in self.lock.withLock { self.held.append(written) } },
            overflowed: { self.lock.withLock { self.overflowed += 1 } }, goingAway: {}, sessionEnded: { _ in },
            sessionEndsAt: { _ in })
    }
}
