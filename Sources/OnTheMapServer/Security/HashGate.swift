import CoreMetrics
import Hummingbird
import NIOPosix
import Synchronization

/// The process-wide bound on password hashes (login, decoy, sign-up, all together).
///
/// bcrypt costs tens of milliseconds of CPU by design, so an unbounded number of them lets a
/// flood of logins starve every other request. At most `running` hashes run at once (on NIO's
/// thread pool), at most `waiting` more wait in line, and any beyond that are refused at once
/// with 503 and `Retry-After: 1` — nothing queues without bound.
final class HashGate: Sendable {
    /// Hashes that may run at once.
    let limit: Int
    /// Hashes that may wait in line.
    let lineLimit: Int
    private let state = Mutex(State())

    private struct State {
        var active = 0
        var line: [CheckedContinuation<Bool, Never>] = []
    }

    init(running: Int, waiting: Int) {
        limit = max(running, 1)
        lineLimit = max(waiting, 0)
    }

    /// Hashes waiting in line now.
    var waiting: Int { state.withLock { $0.line.count } }

    /// Runs `work` (a bcrypt hash or check, named by `kind` in the metrics) when a place is free.
    /// - Throws: 503 when `running` run and `waiting` already wait.
    func run<T: Sendable>(_ kind: String, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard await enter() else {
            Counter(label: "onthemap_password_hashes_refused_total").increment()
            var failure = APIFailure.udacity(.serviceUnavailable, "The server is busy. Try again in 1 second.")
            failure.headers[.retryAfter] = "1"
            throw failure
        }
        defer { leave() }
        Counter(label: "onthemap_password_hashes_total", dimensions: [("kind", kind)]).increment()
        return try await NIOThreadPool.singleton.runIfActive(work)
    }

    private func enter() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer: Bool? = state.withLock { state in
                if state.active < limit {
                    state.active += 1
                    return true
                }
                guard state.line.count < lineLimit else { return false }
                state.line.append(continuation)
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Hands the place to the first in line, or frees it.
    private func leave() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard !state.line.isEmpty else {
                state.active -= 1
                return nil
            }
            return state.line.removeFirst()
        }
        next?.resume(returning: true)
    }
}
