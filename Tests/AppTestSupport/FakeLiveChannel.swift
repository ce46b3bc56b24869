import APIClient
import Foundation
import OnTheMapModels

/// A live channel the test speaks for: `send` delivers an event to the current subscriber;
/// `subscriptions` counts how often one subscribed and `isSubscribed` whether one still reads.
public final class FakeLiveChannel: LiveChannel, @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: AsyncStream<LiveEvent>.Continuation?
    private var count = 0

    public init() {}

    public func liveEvents(where whereClause: JSONValue?) -> AsyncStream<LiveEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self)
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { self?.continuation = nil }
        }
        lock.withLock {
            self.continuation = continuation
            count += 1
        }
        return stream
    }

    public var subscriptions: Int { lock.withLock { count } }
    public var isSubscribed: Bool { lock.withLock { continuation != nil } }

    /// Delivers `event` to the subscriber, if any.
    public func send(_ event: LiveEvent) {
        _ = lock.withLock { continuation }?.yield(event)
    }
}
