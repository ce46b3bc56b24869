/// Reads `read` every 20 ms until `isDone` holds for what it read or `deadline` has passed, and
/// returns the last value read, for the caller's expectation to judge (and report).
public func poll<Value>(
    until deadline: ContinuousClock.Instant, _ read: () async throws -> Value, isDone: (Value) -> Bool
) async throws -> Value {
    var value = try await read()
    while !isDone(value), ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(20))
        value = try await read()
    }
    return value
}
