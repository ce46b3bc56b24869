/// Waits until `condition` holds, letting main-actor tasks run between looks, for at most
/// `seconds`. Returns whether it came true. The bound only ends a test that would otherwise hang,
/// so it is far above any passing wait: in the parallel pass a test's next step queues behind
/// every other suite's work, and on a loaded 2-core machine a login that takes 0.2 s alone has
/// taken more than 10 s there.
@MainActor
public func eventually(within seconds: Double = 60, _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
