import ServerQuery
import ServerSessions

/// Lets at most `slots` expensive list queries (`ListQuery.isExpensive`) run at once, so that
/// they can never hold every database connection (SQLite's pool has 5 readers, PostgreSQL's 16)
/// nor every core: the apps' own requests, which are not gated, always find a connection.
///
/// A query beyond the slots waits in line, at most `maxWaiting` of them and each at most
/// `maxWait`; past either it gets 503 `{"code":155,…}` with `Retry-After: 1`, quickly, instead
/// of queueing without bound (`AdmissionGate`). (A wait costs only a suspended task, so the line
/// is long enough for a burst of ordinary unindexed queries, each a few milliseconds, to pass
/// through.)
package final class ExpensiveQueryGate: Sendable {
    static let maxWait: Duration = .seconds(1)
    static let maxWaiting = 64
    /// 503 `{"code":155,…}` (Parse's `REQUEST_LIMIT_EXCEEDED`) with `Retry-After: 1`: every slot
    /// is taken and none freed within the wait. A `QueryRefusal`, so LiveQuery answers it with
    /// the same code.
    static let busy = QueryRefusal(code: 155, "too many expensive queries at once; retry later", retryAfterSeconds: 1)

    private let gate: AdmissionGate

    package init(slots: Int) {
        gate = AdmissionGate(limit: slots, lineLimit: Self.maxWaiting, maxWait: Self.maxWait)
    }

    /// Runs `body` in a slot.
    /// - Throws: `busy` when no slot freed in time; whatever `body` throws.
    package func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard let result = try await gate.run(body) else { throw Self.busy }
        return result
    }
}
