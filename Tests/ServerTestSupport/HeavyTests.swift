/// One heavy test at a time: tests that flood a server (hundreds of requests at once) or whose
/// verdict depends on timing under such a flood (a SIGKILL in mid-burst) take turns, instead of
/// starving each other on a 2-core machine while the rest of the suite runs beside them.
public actor HeavyTests {
    public static let shared = HeavyTests()
    private var busy = false
    private var line: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` when no other heavy test runs.
    public static func exclusively<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await shared.acquire()
        do {
            let result = try await body()
            await shared.release()
            return result
        } catch {
            await shared.release()
            throw error
        }
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { line.append($0) }
    }

    private func release() {
        if line.isEmpty { busy = false } else { line.removeFirst().resume() }
    }
}
