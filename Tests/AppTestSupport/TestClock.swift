import Foundation

/// A clock tests set and move by hand; `read` is what view-models take as their `now`.
public final class TestClock: @unchecked Sendable {
    /// The fixed "now" of every snapshot and sample row.
    public static let start = Date(timeIntervalSince1970: 1_800_000_000)
    /// A clock that always reads `start`.
    public static let fixed: @Sendable () -> Date = { start }

    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = TestClock.start) {
        self.current = start
    }

    public var now: Date { lock.withLock { current } }

    /// Moves the clock forward.
    public func advance(seconds: Double) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    /// This clock as a `now` function.
    public var read: @Sendable () -> Date { { [self] in now } }
}
