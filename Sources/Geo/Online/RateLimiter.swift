/// Spaces calls at least `interval` apart, in the order they ask, across concurrent callers.
actor RateLimiter {
    private let interval: Duration
    private let clock = ContinuousClock()
    private var nextSlot: ContinuousClock.Instant?

    init(interval: Duration) {
        self.interval = interval
    }

    /// Waits until this caller's turn (reserved at once, so callers never share a slot).
    func waitForTurn() async {
        let now = clock.now
        let slot = max(now, nextSlot ?? now)
        nextSlot = slot + interval
        if slot > now {
            try? await Task.sleep(until: slot, clock: clock)
        }
    }
}
