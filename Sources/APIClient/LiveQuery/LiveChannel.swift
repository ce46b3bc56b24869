import Foundation
import OnTheMapModels

/// What a LiveQuery event did to a row (Parse LiveQuery's event ops).
public enum LiveOp: String, Sendable, Equatable, CaseIterable {
    /// A new row that matches.
    case create
    /// A row that matched before and after a write.
    case update
    /// A row that now matches after an update.
    case enter
    /// A row that no longer matches after an update.
    case leave
    /// A matching row was deleted.
    case delete

    /// Whether the row is to be shown after the event (`create`, `update`, `enter`).
    public var keepsRow: Bool { self == .create || self == .update || self == .enter }
}

/// What the live channel reports, in order. Rows are as the REST list decodes them (not yet
/// cleaned for a terminal: every reader cleans with SafeText before output).
public enum LiveEvent: Sendable, Equatable {
    /// Connected and subscribed: events flow from now on.
    case live
    /// The subscription's current first page, sent after every (re)subscription so a reader
    /// misses nothing that happened while it was away.
    case firstPage([StudentInformation])
    /// A row changed.
    case change(LiveOp, StudentInformation)
    /// The socket ended (`reason`); the next attempt starts in `seconds`.
    case reconnecting(seconds: Double, reason: String)
    /// The server refused for good (an `error` with `reconnect: false` during connect or
    /// subscribe); the channel stops.
    case refused(String)
}

/// The live channel: a LiveQuery subscription to StudentLocation as a stream of events, kept
/// up (reconnecting with `LiveBackoff`) until the stream's reader stops. `OnTheMapClient` gives
/// the real one; view-model tests use `FakeLiveChannel`.
public protocol LiveChannel: Sendable {
    /// Subscribes with `whereClause` (all rows when nil). Cancelling the reader ends the socket.
    func liveEvents(where whereClause: JSONValue?) -> AsyncStream<LiveEvent>
}

/// Waits between reconnections: 1, 2, 4 … 30 s, each up to 20 % longer at random, so clients
/// cut off together do not come back together.
public struct LiveBackoff: Sendable {
    public var maximum: Double = 30

    public init(maximum: Double = 30) { self.maximum = maximum }

    /// The wait before attempt `attempt` (0 for the first retry); `jitter` in 0...1.
    public func delay(attempt: Int, jitter: Double = Double.random(in: 0...1)) -> Double {
        let base = min(maximum, pow(2, Double(min(attempt, 16))))
        return min(maximum * 1.2, base * (1 + 0.2 * jitter))
    }
}
