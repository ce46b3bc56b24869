import Foundation
import NIOConcurrencyHelpers

/// Every open LiveQuery socket of this process and their subscriptions; turns each change of
/// the feed into events and queues them on the sockets that should get them.
final class LiveQueryHub: Sendable {
    struct Subscription: Sendable {
        var query: LiveQueryRequest.Query
        /// Whose view this subscription has (its own token's account, else the socket's).
        var caller: Caller
    }

    let visibility: LiveQueryVisibility
    private let connections = NIOLockedValueBox<[Int: LiveQueryConnection]>([:])
    private let nextClientId = NIOLockedValueBox(0)

    init(visibility: @escaping LiveQueryVisibility) { self.visibility = visibility }

    var connectionCount: Int { connections.withLockedValue { $0.count } }

    func add(_ connection: LiveQueryConnection) { connections.withLockedValue { $0[connection.clientId] = connection } }
    func remove(_ connection: LiveQueryConnection) { _ = connections.withLockedValue { $0.removeValue(forKey: connection.clientId) } }
    func makeClientId() -> Int { nextClientId.withLockedValue { $0 += 1; return $0 } }

    /// Called by the feed, in write order: one event per matching subscription.
    func publish(_ change: LocationChange) {
        for connection in connections.withLockedValue({ Array($0.values) }) {
            for (requestId, subscription) in connection.subscriptions() {
                guard let message = event(for: change, subscription, clientId: connection.clientId, requestId: requestId)
                else { continue }
                if !connection.enqueue(message) { break }
            }
        }
    }

    /// The event a change means for one subscription, or `nil`: `where` and visibility decide on
    /// the row before and after (docs/livequery.md's table).
    func event(for change: LocationChange, _ subscription: Subscription, clientId: Int, requestId: Int) -> String? {
        func matches(_ row: StoredLocation?) -> Bool {
            guard let row else { return false }
            return subscription.query.predicate.matches(row) && visibility(row, subscription.caller)
        }
        let before = matches(change.before)
        let after = matches(change.after)
        let fields = subscription.query.fields
        switch (before, after, change.before, change.after) {
        case (false, true, nil, let row?):
            return LiveQueryReply.event("create", clientId: clientId, requestId: requestId, object: row, original: nil, fields: fields)
        case (false, true, _, let row?):
            return LiveQueryReply.event("enter", clientId: clientId, requestId: requestId, object: row, original: nil, fields: fields)
        case (true, true, let original?, let row?):
            return LiveQueryReply.event(
                "update", clientId: clientId, requestId: requestId, object: row, original: original, fields: fields)
        case (true, false, let row?, let now?):
            // The row as it is now, unless the subscriber may no longer see it: then as it was.
            let shown = visibility(now, subscription.caller) ? now : row
            return LiveQueryReply.event("leave", clientId: clientId, requestId: requestId, object: shown, original: nil, fields: fields)
        case (true, false, let row?, nil):
            return LiveQueryReply.event("delete", clientId: clientId, requestId: requestId, object: row, original: nil, fields: fields)
        default:
            return nil
        }
    }
}

/// One socket: its subscriptions and its bounded queue of messages to send.
final class LiveQueryConnection: Sendable {
    let clientId: Int
    let address: String
    private let state = NIOLockedValueBox(State())
    private let outbox: AsyncStream<String>.Continuation
    let messages: AsyncStream<String>
    /// Called once when the queue overflowed: the socket is to be closed.
    private let onOverflow: @Sendable () -> Void

    private struct State {
        var subscriptions: [Int: LiveQueryHub.Subscription] = [:]
        var caller = Caller.anonymous
        var connected = false
        var overflowed = false
    }

    init(clientId: Int, address: String, queueLength: Int, onOverflow: @escaping @Sendable () -> Void) {
        self.clientId = clientId
        self.address = address
        self.onOverflow = onOverflow
        (messages, outbox) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(queueLength))
    }

    var isConnected: Bool { state.withLockedValue { $0.connected } }
    var caller: Caller { state.withLockedValue { $0.caller } }
    var subscriptionCount: Int { state.withLockedValue { $0.subscriptions.count } }

    func markConnected(caller: Caller) {
        state.withLockedValue {
            $0.connected = true
            $0.caller = caller
        }
    }

    func subscriptions() -> [(Int, LiveQueryHub.Subscription)] {
        state.withLockedValue { $0.overflowed ? [] : $0.subscriptions.sorted { $0.key < $1.key } }
    }

    func subscription(_ requestId: Int) -> LiveQueryHub.Subscription? { state.withLockedValue { $0.subscriptions[requestId] } }

    func setSubscription(_ requestId: Int, _ subscription: LiveQueryHub.Subscription?) {
        state.withLockedValue { $0.subscriptions[requestId] = subscription }
    }

    /// Queues a message; `false` (and the socket is being closed) when the queue was full.
    @discardableResult
    func enqueue(_ message: String) -> Bool {
        if state.withLockedValue({ $0.overflowed }) { return false }
        switch outbox.yield(message) {
        case .enqueued: return true
        case .dropped, .terminated:
            let first = state.withLockedValue { state in
                defer { state.overflowed = true }
                return !state.overflowed
            }
            if first {
                outbox.finish()
                onOverflow()
            }
            return false
        @unknown default: return false
        }
    }

    func finish() { outbox.finish() }

    /// Whether the queue overflowed (the subscriber stopped reading), as opposed to the socket ending.
    var hasOverflowed: Bool { state.withLockedValue { $0.overflowed } }
}
