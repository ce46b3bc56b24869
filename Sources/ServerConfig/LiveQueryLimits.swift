import ClassRules
import ServerStorage

/// The bounds of the LiveQuery socket (`serve --live-*`). Each is checked before the work it
/// bounds; past one the client gets an `error` (or, for the queue, is closed with 1008).
public struct LiveQueryLimits: Sendable, Hashable {
    /// Sockets open at once from one client address (the upgrade past it is refused with 429).
    public var connectionsPerAddress = 20
    /// Sockets open at once in all (past it: 503).
    public var maxConnections = 10_000
    /// Subscriptions one socket may hold.
    public var subscriptionsPerConnection = 50
    /// `$regex` constraints in all of one socket's subscriptions: every write runs each on the
    /// row before and after, so this bounds the regex work a write can cause per socket.
    public var regexesPerConnection = 8
    /// The same over every socket from one client address.
    public var regexesPerAddress = 32
    /// The CPU time one address's subscriptions may take to match one write (each address's
    /// matching runs on a lane of its own, off the change follower). Past it, the address's
    /// sockets that hold a `$regex` are closed with a 124 error: a count of patterns alone let
    /// `^a*a*a*a*$` on a 1,000-character row cost each write 3.2 s. A stopped `$regex` costs 50 ms.
    public var matchingBudgetPerWrite: Duration = .milliseconds(100)
    /// The largest message a client may send, in bytes (a larger one closes the socket with 1009).
    public var maxMessageBytes = 16 * 1024
    /// Messages waiting to be sent to one socket; a subscriber that falls this far behind (it
    /// stopped reading) is closed with 1008 and never slows the others.
    public var queueLength = 1000
    /// The bytes of those messages, for one socket and for all the sockets of one client address:
    /// a count alone let 19 sockets that did not read hold 29 MB per write of a 15.6 KB row. Past
    /// either, the socket that would pass it is closed with 1008, as for the count.
    public var queueBytes = 4 << 20
    public var queueBytesPerAddress = 16 << 20
    /// Seconds between the server's pings; a client that has not answered one by the next is closed.
    public var pingSeconds = 10.0
    /// Seconds a new socket has to send `connect`.
    public var connectSeconds = 10.0

    public init() {}
}

/// Who may see a row, asked once per event and subscriber: the row (before or after the write)
/// and the subscriber as a `Caller` (`anonymous` for a socket without a session). A row it
/// refuses is never sent: a match it hides is treated as no match (so a row that becomes hidden
/// `leave`s).
///
/// The server uses the one rule of Docs/Access.md, `Access.maySee` (hidden rows: their owner and
/// moderators only), as the REST list does; tests may put another rule here.
package typealias LiveQueryVisibility = @Sendable (_ row: StoredLocation, _ subscriber: Caller) -> Bool
