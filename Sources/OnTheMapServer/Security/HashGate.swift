import CoreMetrics
import Hummingbird
import NIOPosix
import Synchronization

/// The process-wide bound on password hashes (login, decoy, sign-up, all together).
///
/// bcrypt costs tens of milliseconds of CPU by design, so an unbounded number of them lets a
/// flood of logins starve every other request. At most `limit` hashes run at once (on NIO's
/// thread pool), at most `lineLimit` more wait in line, each for at most `maxWait` (a hash takes
/// far longer on a machine that is busy anyway), and any beyond that are refused at once with
/// 503 and `Retry-After: 1` — nothing queues without bound, in number or in time.
final class HashGate: Sendable {
    /// Hashes that may run at once.
    let limit: Int
    /// Hashes that may wait in line.
    let lineLimit: Int
    /// The longest a hash waits for a place before it is refused.
    let maxWait: Duration
    private let state = Mutex(State())

    private struct State {
        var active = 0
        var line: [(ticket: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextTicket: UInt64 = 0
    }

    init(running: Int, waiting: Int, maxWait: Duration = .seconds(2)) {
        limit = max(running, 1)
        lineLimit = max(waiting, 0)
        self.maxWait = maxWait
    }

    /// Hashes waiting in line now.
    var waiting: Int { state.withLock { $0.line.count } }

    /// Runs `work` (a bcrypt hash or check, named by `kind` in the metrics) when a place is free.
    /// - Throws: 503 when no place frees up in time, or the line is full.
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
            let answer: (admitted: Bool?, ticket: UInt64) = state.withLock { state in
                if state.active < limit {
                    state.active += 1
                    return (true, 0)
                }
                guard state.line.count < lineLimit else { return (false, 0) }
                state.nextTicket += 1
                state.line.append((state.nextTicket, continuation))
                return (nil, state.nextTicket)
            }
            if let admitted = answer.admitted {
                continuation.resume(returning: admitted)
            } else {
                Task { [maxWait] in
                    try? await Task.sleep(for: maxWait)
                    self.giveUp(answer.ticket)
                }
            }
        }
    }

    /// Refuses the waiter holding `ticket` if it is still in line.
    private func giveUp(_ ticket: UInt64) {
        let expired: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard let index = state.line.firstIndex(where: { $0.ticket == ticket }) else { return nil }
            return state.line.remove(at: index).continuation
        }
        expired?.resume(returning: false)
    }

    /// Hands the place to the first in line, or frees it.
    private func leave() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard !state.line.isEmpty else {
                state.active -= 1
                return nil
            }
            return state.line.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
