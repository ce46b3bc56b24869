import TestPatience

/// Waits until `condition` holds, letting main-actor tasks run between looks, for at most
/// `timeout`. Returns whether it came true. The bound only ends a test that would otherwise hang
/// (`Patience`): in the parallel pass a test's next step queues behind every other suite's work,
/// and beside two CPU hogs a login that takes 0.2 s alone has taken over 60 s there.
///
/// The looks start 2 ms apart and back off to 50 ms, so that a hundred waiting tests do not
/// keep the main actor busy with looks while the work they wait for queues behind them.
@MainActor
public func eventually(within timeout: Duration = Patience.forAnEvent, _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(2)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(50))
    }
    return true
}
