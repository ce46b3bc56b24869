import Synchronization

/// A bound on work running at once, with a bounded line: at most `limit` run, at most
/// `lineLimit` more wait — each at most `maxWait` — in arrival order, and any beyond that are
/// refused at once. Nothing queues without bound, in number or in time. The hash gate and the
/// expensive-query gate are both this, each with its own numbers and refusal.
package final class AdmissionGate: Sendable {
    /// Work that may run at once.
    let limit: Int
    /// Work that may wait in line.
    let lineLimit: Int
    /// The longest a waiter waits for a place before it is refused.
    let maxWait: Duration
    private let state = Mutex(State())

    private struct State {
        var active = 0
        var line: [(ticket: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextTicket: UInt64 = 0
    }

    package init(limit: Int, lineLimit: Int, maxWait: Duration) {
        self.limit = max(limit, 1)
        self.lineLimit = max(lineLimit, 0)
        self.maxWait = maxWait
    }

    /// Waiters in line now.
    var waiting: Int { state.withLock { $0.line.count } }

    /// Runs `body` in a place; `nil` when no place freed up in time or the line was full.
    package func run<T: Sendable>(_ body: () async throws -> T) async rethrows -> T? {
        guard await enter() else { return nil }
        defer { leave() }
        return try await body()
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
