/// Lets one request at a time through, each starting at least `interval` after the previous
/// one finished, so a service never sees two requests closer than that — in the order callers
/// asked, across concurrent callers.
actor RateLimiter {
    private let interval: Duration
    private let clock = ContinuousClock()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var earliestStart: ContinuousClock.Instant?

    init(interval: Duration) {
        self.interval = interval
    }

    /// Waits for this caller's turn; call `release()` when its request has finished.
    func acquire() async {
        if busy {
            // `release()` hands the turn over without clearing `busy`.
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        if let earliestStart, earliestStart > clock.now {
            try? await Task.sleep(until: earliestStart, clock: clock)
        }
    }

    /// Ends the current turn and starts the interval before the next one.
    func release() {
        earliestStart = clock.now + interval
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
