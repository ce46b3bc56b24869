/// Waits until `condition` holds, letting main-actor tasks run between looks, for at most
/// `seconds` (generous: a loaded 2-core machine can be slow). Returns whether it came true.
@MainActor
public func eventually(within seconds: Double = 10, _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
