import ClassRules
import Foundation
import NIOConcurrencyHelpers
import ServerConfig
import ServerQuery
import ServerStorage

/// Every open LiveQuery socket of this process and their subscriptions; turns each change of
/// the feed into events and queues them on the sockets that should get them.
package final class LiveQueryHub: Sendable {
    struct Subscription: Sendable {
        var query: LiveQueryRequest.Query
        /// Whose view this subscription has (its own token's account, else the socket's).
        var caller: Caller
        /// The session token `caller` was resolved from (its own, else the socket's): asked again
        /// when the change log says its account changed (`LiveQueryServer.followCaller`).
        var sessionToken: String?
        /// The change log's end when it subscribed: changes logged before (which the follower may
        /// still be delivering) are not its events — its `query` page has them.
        var since: Int64 = 0
        /// When its own session token's session ends (seconds since 1970); `nil` when it has none
        /// of its own (the socket's, if any, holds).
        var sessionExpiresAt: Double? = nil
    }

    let visibility: LiveQueryVisibility
    /// The bytes queued on each address's sockets.
    let addressQueues: AddressQueues
    /// Where each address's matching runs, off the change follower.
    let lanes = AddressLanes()
    /// The CPU time one address's subscriptions may take to match one write
    /// (`LiveQueryLimits.matchingBudgetPerWrite`).
    let matchingBudget: Duration
    private let connections = NIOLockedValueBox<[Int: LiveQueryConnection]>([:])
    private let nextClientId = NIOLockedValueBox(0)

    init(
        visibility: @escaping LiveQueryVisibility, queueBytesPerAddress: Int = .max,
        matchingBudget: Duration = .milliseconds(100)
    ) {
        self.visibility = visibility
        addressQueues = AddressQueues(limit: queueBytesPerAddress)
        self.matchingBudget = matchingBudget
    }

    var connectionCount: Int { connections.withLockedValue { $0.count } }

    func add(_ connection: LiveQueryConnection) { connections.withLockedValue { $0[connection.clientId] = connection } }
    func remove(_ connection: LiveQueryConnection) { _ = connections.withLockedValue { $0.removeValue(forKey: connection.clientId) } }
    func makeClientId() -> Int { nextClientId.withLockedValue { $0 += 1; return $0 } }
    var allConnections: [LiveQueryConnection] { connections.withLockedValue { Array($0.values) } }

    /// The sockets whose own caller or one of whose subscriptions' callers is this account.
    func connections(ofAccount key: String) -> [LiveQueryConnection] {
        allConnections.filter { connection in
            connection.caller.accountKey == key || connection.subscriptions().contains { $0.1.caller.accountKey == key }
        }
    }

    /// `$regex` constraints in the subscriptions of every socket from `address`.
    func regexCount(address: String) -> Int {
        allConnections.reduce(0) { $1.address == address ? $0 + $1.regexCount : $0 }
    }

    /// Called by the feed, in write order: one event per matching subscription. The matching runs
    /// on each address's lane (`AddressLanes`), so the follower only hands the change out, and one
    /// address's subscriptions never hold up another address's events.
    package func publish(_ change: LocationChange) {
        let byAddress = Dictionary(grouping: allConnections, by: \.address)
        for (address, connections) in byAddress {
            let connections = connections.sorted { $0.clientId < $1.clientId }
            lanes.run(on: address) { [self] in match(change, on: connections) }
        }
    }

    /// What an address's socket is told when its address's subscriptions took longer than the
    /// budget to match one write, before it is closed.
    static func overBudgetMessage(_ budget: Duration) -> String {
        LiveQueryReply.error(
            LiveQueryError(
                code: 124,
                "query too expensive: your address's subscriptions took more than \(budget.wholeMilliseconds) ms to match one write; "
                    + "subscribe with fewer or simpler $regex constraints"))
    }

    /// Matches one change against every subscription of one address's sockets, in CPU time
    /// counted against `matchingBudget`. Once the address has used it up on this write, each
    /// further socket that holds a `$regex` (where the time goes: a stopped match costs its 50 ms)
    /// is ended with `overBudgetMessage` instead of matched, and so is the socket that was being
    /// matched when the budget ran out; sockets without a `$regex` are still matched.
    func match(_ change: LocationChange, on connections: [LiveQueryConnection]) {
        let started = threadCPUTime()
        var overBudget = false
        for connection in connections {
            if overBudget, connection.regexCount > 0 {
                connection.endSession(Self.overBudgetMessage(matchingBudget), closing: "query too expensive")
                continue
            }
            for (requestId, subscription) in connection.subscriptions() {
                if let message = event(for: change, subscription, clientId: connection.clientId, requestId: requestId),
                    !connection.enqueue(message)
                {
                    break
                }
                if !overBudget, threadCPUTime() - started > matchingBudget {
                    overBudget = true
                    if connection.regexCount > 0 {
                        connection.endSession(Self.overBudgetMessage(matchingBudget), closing: "query too expensive")
                        break
                    }
                }
            }
        }
    }

    /// The event a change means for one subscription, or `nil`: visibility and `where` decide on
    /// the row before and after (docs/livequery.md's table). Visibility first: a subscriber's
    /// pattern never runs on a row hidden from them, whose text its time would tell.
    func event(for change: LocationChange, _ subscription: Subscription, clientId: Int, requestId: Int) -> String? {
        guard change.seq == 0 || change.seq > subscription.since else { return nil }
        func matches(_ row: StoredLocation?) -> Bool {
            guard let row else { return false }
            return visibility(row, subscription.caller) && subscription.query.predicate.matches(row)
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

/// The bytes waiting to be sent on the sockets of each client address, bounded by `limit`
/// together (`LiveQueryLimits.queueBytesPerAddress`).
final class AddressQueues: Sendable {
    let limit: Int
    private let bytes = NIOLockedValueBox<[String: Int]>([:])

    init(limit: Int) { self.limit = limit }

    /// Takes `count` bytes for `address`; `false` (nothing taken) when that would pass the limit.
    func take(_ count: Int, for address: String) -> Bool {
        bytes.withLockedValue { bytes in
            let queued = bytes[address, default: 0]
            guard queued + count <= limit else { return false }
            bytes[address] = queued + count
            return true
        }
    }

    /// Gives back bytes `take` took, once they were written (or can no longer be).
    func give(_ count: Int, for address: String) {
        bytes.withLockedValue { bytes in
            let left = bytes[address, default: count] - count
            bytes[address] = left > 0 ? left : nil
        }
    }

    func queued(for address: String) -> Int { bytes.withLockedValue { $0[address, default: 0] } }
}

/// One socket: its subscriptions and its bounded queue of messages to send.
///
/// The queue is the socket's own outbound buffer: a message is handed to the socket at once and
/// counts as queued until the socket has written it to the kernel. A subscriber that stops
/// reading lets `queueLength` messages, or `queueBytes` bytes, or its address's share of bytes,
/// pile up and is then dropped (`overflowed`), never slowing the others (`enqueue` never waits).
final class LiveQueryConnection: Sendable {
    /// What a connection needs of its socket; each may be called from any thread.
    struct Socket: Sendable {
        /// Sends one text message; `written` is called once it has left (or can no longer).
        var send: @Sendable (_ message: String, _ written: @escaping @Sendable () -> Void) -> Void
        /// Called once when the queue overflowed: the socket is to be closed (1008).
        var overflowed: @Sendable () -> Void
        /// Closes the socket as the server goes away (1001).
        var goingAway: @Sendable () -> Void
        /// Closes the socket (1000, with `reason`) after the messages queued so far: the session
        /// it was opened with ended, or the database it followed was replaced.
        var sessionEnded: @Sendable (_ reason: String) -> Void
        /// Asks for `endIfSessionEnded` just after this time (seconds since 1970), instead of any
        /// time asked before; `nil`: never.
        var sessionEndsAt: @Sendable (Double?) -> Void
    }

    /// What a socket whose session ended is told before it is closed (no reconnect: the client
    /// must log in again).
    static var sessionEndedMessage: String {
        LiveQueryReply.error(LiveQueryError(code: 209, "Invalid session token: the session ended; log in again"))
    }

    let clientId: Int
    let address: String
    private let queueLength: Int
    private let queueBytes: Int
    private let addressQueues: AddressQueues?
    private let socket: Socket
    private let state = NIOLockedValueBox(State())

    private struct State {
        var subscriptions: [Int: LiveQueryHub.Subscription] = [:]
        var caller = Caller.anonymous
        /// The session token of `connect`, if any, and when its session ends (seconds since 1970).
        var sessionToken: String?
        var sessionExpiresAt: Double?
        var connected = false
        var overflowed = false
        /// Messages handed to the socket and not yet written, and their bytes.
        var queued = 0
        var queuedBytes = 0

        /// When the first of the sessions this socket holds ends: its own, or a subscription's.
        /// Kept, not computed per message: `enqueue` asks it for every event of every write.
        private(set) var sessionEnds: Double?

        /// Sets `sessionEnds` again, after the sessions held changed.
        mutating func holdSessions() {
            sessionEnds = subscriptions.values.compactMap(\.sessionExpiresAt).reduce(sessionExpiresAt) { earliest, end in
                earliest.map { min($0, end) } ?? end
            }
        }

        func sessionEnded(now: Double = Date().timeIntervalSince1970) -> Bool { sessionEnds.map { $0 <= now } ?? false }
    }

    init(
        clientId: Int, address: String, queueLength: Int, queueBytes: Int = .max, addressQueues: AddressQueues? = nil,
        socket: Socket
    ) {
        self.clientId = clientId
        self.address = address
        self.queueLength = queueLength
        self.queueBytes = queueBytes
        self.addressQueues = addressQueues
        self.socket = socket
    }

    var isConnected: Bool { state.withLockedValue { $0.connected } }
    var caller: Caller { state.withLockedValue { $0.caller } }
    var subscriptionCount: Int { state.withLockedValue { $0.subscriptions.count } }

    var sessionToken: String? { state.withLockedValue { $0.sessionToken } }
    /// `$regex` constraints in all of this socket's subscriptions.
    var regexCount: Int { state.withLockedValue { $0.subscriptions.values.reduce(0) { $0 + $1.query.predicate.regexCount } } }

    func markConnected(caller: Caller, sessionToken: String?, sessionExpiresAt: Double?) {
        let ends = state.withLockedValue {
            $0.connected = true
            $0.caller = caller
            $0.sessionToken = sessionToken
            $0.sessionExpiresAt = sessionExpiresAt
            $0.holdSessions()
            return $0.sessionEnds
        }
        socket.sessionEndsAt(ends)
    }

    /// The socket's own caller, as asked again.
    func setCaller(_ caller: Caller) { state.withLockedValue { $0.caller = caller } }

    /// Ends the socket: `message` (an error that says why), then a close with `reason`.
    func endSession(_ message: String, closing reason: String = "session ended") {
        let ended = state.withLockedValue { state -> Bool in
            guard !state.overflowed else { return false }
            state.subscriptions = [:]
            state.overflowed = true  // nothing more is queued
            return true
        }
        guard ended else { return }
        socket.send(message) {}
        socket.sessionEnded(reason)
    }

    func subscriptions() -> [(Int, LiveQueryHub.Subscription)] {
        state.withLockedValue { $0.overflowed ? [] : $0.subscriptions.sorted { $0.key < $1.key } }
    }

    func subscription(_ requestId: Int) -> LiveQueryHub.Subscription? { state.withLockedValue { $0.subscriptions[requestId] } }

    func setSubscription(_ requestId: Int, _ subscription: LiveQueryHub.Subscription?) {
        let ends = state.withLockedValue {
            $0.subscriptions[requestId] = subscription
            $0.holdSessions()
            return $0.sessionEnds
        }
        socket.sessionEndsAt(ends)
    }

    /// Ends the socket (209, then a close) once a session it holds has ended: by its timer, and
    /// before any message is queued, so that no count of sessions or timers lets an expired
    /// socket receive anything.
    func endIfSessionEnded() {
        if state.withLockedValue({ $0.sessionEnded() }) { endSession(Self.sessionEndedMessage) }
    }

    /// Queues a message; `false` (and the socket is being closed) when the queue was full or
    /// the socket's session has ended.
    @discardableResult
    func enqueue(_ message: String) -> Bool {
        enum Outcome { case queued, refused, overflowed, sessionEnded }
        let size = message.utf8.count
        let outcome = state.withLockedValue { state -> Outcome in
            if state.overflowed { return .refused }
            if state.sessionEnded() { return .sessionEnded }
            guard state.queued < queueLength, state.queuedBytes + size <= queueBytes,
                addressQueues?.take(size, for: address) ?? true
            else {
                state.overflowed = true
                return .overflowed
            }
            state.queued += 1
            state.queuedBytes += size
            return .queued
        }
        switch outcome {
        case .queued:
            socket.send(message) { [state, addressQueues, address] in
                state.withLockedValue {
                    $0.queued -= 1
                    $0.queuedBytes -= size
                }
                addressQueues?.give(size, for: address)
            }
            return true
        case .overflowed:
            socket.overflowed()
            return false
        case .sessionEnded:
            endSession(Self.sessionEndedMessage)
            return false
        case .refused:
            return false
        }
    }

    /// Closes the socket because the server stops.
    func goAway() { socket.goingAway() }

    /// Whether the queue overflowed (the subscriber stopped reading), as opposed to the socket ending.
    var hasOverflowed: Bool { state.withLockedValue { $0.overflowed } }
}
