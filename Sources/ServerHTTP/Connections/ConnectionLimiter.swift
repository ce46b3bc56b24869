import NIOConcurrencyHelpers
import NIOCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The open connections of one server, capped at `maxConnections` in a way that never locks a
/// normal client out: when a new connection arrives at the cap, the connection that has been
/// idle the longest (no request in flight: a keep-alive connection, or one still trickling its
/// headers) is closed to make room. Only when every connection is in the middle of a request
/// (each bounded by `serve --request-timeout`) is the newcomer closed instead.
package final class ConnectionLimiter: Sendable {
    /// One open connection as its handler sees it. The handler marks it busy and idle on every
    /// request without taking the limiter's lock (an atomic store); only an eviction, at the cap,
    /// reads them all.
    package final class Registration: Sendable {
        fileprivate let id: Int
        /// When it last had no request in flight, in `NIODeadline` nanoseconds; `busy` while one is.
        private let idleSince: Synchronization.Atomic<UInt64>
        private static let busy = UInt64.max

        fileprivate init(id: Int) {
            self.id = id
            idleSince = Synchronization.Atomic(NIODeadline.now().uptimeNanoseconds)
        }

        /// The connection started a request (it may not be evicted until it is idle again).
        func markBusy() { idleSince.store(Self.busy, ordering: .relaxed) }

        /// The connection has no request in flight.
        func markIdle() { idleSince.store(NIODeadline.now().uptimeNanoseconds, ordering: .relaxed) }

        /// Since when it has been idle; `nil` while a request is in flight.
        fileprivate var idle: UInt64? {
            let since = idleSince.load(ordering: .relaxed)
            return since == Self.busy ? nil : since
        }
    }

    private struct Entry {
        let channel: any Channel
        let registration: Registration
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

    /// Registers a new, idle connection; `nil` when it must be closed.
    func open(_ channel: any Channel) -> Registration? {
        var evicted: (any Channel)?
        let registration: Registration? = state.withLockedValue { state in
            if state.entries.count >= maxConnections {
                let oldest = state.entries.compactMap { key, entry in entry.registration.idle.map { (key, $0) } }.min { $0.1 < $1.1 }
                guard let oldest else { return nil }
                evicted = state.entries.removeValue(forKey: oldest.0)?.channel
            }
            state.nextID += 1
            let registration = Registration(id: state.nextID)
            state.entries[state.nextID] = Entry(channel: channel, registration: registration)
            return registration
        }
        evicted?.close(promise: nil)
        return registration
    }

    /// The connection closed.
    func closed(_ registration: Registration) {
        state.withLockedValue { _ = $0.entries.removeValue(forKey: registration.id) }
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
