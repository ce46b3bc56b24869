import NIOConcurrencyHelpers

/// Lets at most `slots` expensive list queries (`ListQuery.isExpensive`) run at once, so that
/// they can never hold every database connection (SQLite's pool has 5 readers, PostgreSQL's 16)
/// nor every core: the apps' own requests, which are not gated, always find a connection.
///
/// A query beyond the slots waits in line, at most `maxWaiting` of them and each at most
/// `maxWait`; past either it gets 503 `{"code":155,…}` with `Retry-After: 1`, quickly, instead
/// of queueing without bound. (A wait costs only a suspended task, so the line is long enough
/// for a burst of ordinary unindexed queries, each a few milliseconds, to pass through.)
final class ExpensiveQueryGate: Sendable {
    static let maxWait: Duration = .seconds(1)
    static let maxWaiting = 64

    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var running = 0
        var nextID = 0
        var waiters: [Waiter] = []
    }

    let slots: Int
    private let state = NIOLockedValueBox(State())

    init(slots: Int) {
        self.slots = max(1, slots)
    }

    /// Runs `body` in a slot.
    /// - Throws: `APIFailure.queryCapacity` when no slot freed in time; whatever `body` throws.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard await acquire() else { throw APIFailure.queryCapacity(retryAfterSeconds: 1) }
        defer { release() }
        return try await body()
    }

    private func acquire() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            enum Decision { case run, refuse, wait(Int) }
            let decision: Decision = state.withLockedValue { state in
                if state.running < slots {
                    state.running += 1
                    return .run
                }
                guard state.waiters.count < Self.maxWaiting else { return .refuse }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, continuation: continuation))
                return .wait(state.nextID)
            }
            switch decision {
            case .run: continuation.resume(returning: true)
            case .refuse: continuation.resume(returning: false)
            case .wait(let id):
                Task {
                    try? await Task.sleep(for: Self.maxWait)
                    self.giveUp(id)
                }
            }
        }
    }

    private func giveUp(_ id: Int) {
        let waiter = state.withLockedValue { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: false)
    }

    /// Hands the slot to the first waiter, or frees it.
    private func release() {
        let next = state.withLockedValue { state -> Waiter? in
            if state.waiters.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume(returning: true)
    }
}
