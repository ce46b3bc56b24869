import NIOConcurrencyHelpers
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// The open connections of one server, capped at `maxConnections` in a way that never locks a
/// normal client out: when a new connection arrives at the cap, the connection that has been
/// idle the longest (no request in flight: a keep-alive connection, or one still trickling its
/// headers) is closed to make room. Only when every connection is in the middle of a request
/// (each bounded by `serve --request-timeout`) is the newcomer closed instead.
package final class ConnectionLimiter: Sendable {
    private struct Entry {
        let channel: any Channel
        /// When it last had no request in flight; `nil` while one is.
        var idleSince: NIODeadline?
    }

    private struct State {
        var nextID = 0
        var entries: [Int: Entry] = [:]
    }

    let maxConnections: Int
    private let state = NIOLockedValueBox(State())

    package init(maxConnections: Int) {
        self.maxConnections = max(1, maxConnections)
    }

    /// Connections open now (tests and metrics).
    var openCount: Int { state.withLockedValue { $0.entries.count } }

    /// Registers a new, idle connection; returns its id, or `nil` when it must be closed.
    func open(_ channel: any Channel) -> Int? {
        var evicted: (any Channel)?
        let id: Int? = state.withLockedValue { state in
            if state.entries.count >= maxConnections {
                let oldest = state.entries.compactMap { key, entry in entry.idleSince.map { (key, $0) } }.min { $0.1 < $1.1 }
                guard let oldest else { return nil }
                evicted = state.entries.removeValue(forKey: oldest.0)?.channel
            }
            state.nextID += 1
            state.entries[state.nextID] = Entry(channel: channel, idleSince: .now())
            return state.nextID
        }
        evicted?.close(promise: nil)
        return id
    }

    /// The connection started a request (it may not be evicted until it is idle again).
    func busy(_ id: Int) {
        state.withLockedValue { $0.entries[id]?.idleSince = nil }
    }

    /// The connection has no request in flight.
    func idle(_ id: Int) {
        state.withLockedValue { $0.entries[id]?.idleSince = .now() }
    }

    /// The connection closed.
    func closed(_ id: Int) {
        state.withLockedValue { _ = $0.entries.removeValue(forKey: id) }
    }

    /// Raises this process's soft limit on open files as far as needed for `connections` plus
    /// a reserve (database files, PostgreSQL connections, logs), up to the hard limit; returns
    /// how many connections the resulting limit leaves room for.
    package static func fitDescriptorLimit(connections: Int, reserve: Int = 128) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return connections }
        let wanted = rlim_t(connections + reserve)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = limit.rlim_max == rlim_t.max ? wanted : min(wanted, limit.rlim_max)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return min(connections, max(1, Int(clamping: limit.rlim_cur) - reserve))
    }
}
