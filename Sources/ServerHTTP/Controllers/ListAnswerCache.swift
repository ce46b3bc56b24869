import NIOConcurrencyHelpers
import NIOCore

/// Ready-made answers of recent `GET StudentLocation` list requests, so that the app's main
/// request (`limit=100&order=-updatedAt`, sent by every client on every refresh) is answered
/// from memory instead of reading and serializing the same 100 rows again.
///
/// An answer is served only while both hold:
/// - no location was written since it was made: this process's writes clear the cache once they
///   have committed, and so do other processes' writes that the storage hears of (on PostgreSQL,
///   a trigger's `NOTIFY`, so several instances stay consistent within milliseconds);
/// - it is younger than `lifetime` (default 1 s): the bound on staleness for writes nobody
///   announces (another process writing the same SQLite file, e.g. `onthemap-server import`, or
///   a PostgreSQL listener that is reconnecting).
///
/// Answers are keyed by the raw query string (and the dialect, since v1 accepts `uniqueKey=`),
/// so a hit skips parsing too. The cache is bounded: at most `maxEntries` answers of queries up to
/// `maxQueryBytes`, each at most `maxAnswerBytes`; when full it starts over.
package final class ListAnswerCache: Sendable {
    struct Key: Hashable, Sendable {
        var isV1: Bool
        var query: String
    }

    private struct Entry {
        var body: ByteBuffer
        var generation: UInt64
        var expires: NIODeadline
    }

    private struct State {
        /// Bumped by every invalidation; an answer computed across a bump is not stored.
        var generation: UInt64 = 0
        var entries: [Key: Entry] = [:]
    }

    static let maxEntries = 64
    static let maxQueryBytes = 512
    static let maxAnswerBytes = 1 << 20

    package let lifetime: TimeAmount
    private let state = NIOLockedValueBox(State())

    /// - Parameter lifetime: how long an answer may be served; zero or less turns the cache off.
    package init(lifetime: TimeAmount) {
        self.lifetime = lifetime
    }

    /// The key for a request, or `nil` when such answers are not kept (cache off, long query).
    func key(isV1: Bool, query: String?) -> Key? {
        guard lifetime > .zero else { return nil }
        let query = query ?? ""
        guard query.utf8.count <= Self.maxQueryBytes else { return nil }
        return Key(isV1: isV1, query: query)
    }

    /// A stored answer that is still valid.
    func answer(for key: Key, now: NIODeadline = .now()) -> ByteBuffer? {
        state.withLockedValue { state in
            guard let entry = state.entries[key] else { return nil }
            guard entry.generation == state.generation, entry.expires > now else {
                state.entries[key] = nil
                return nil
            }
            return entry.body
        }
    }

    /// Read this before reading the database, and pass it to `store`.
    var generation: UInt64 {
        state.withLockedValue { $0.generation }
    }

    /// Keeps `body` unless a write happened since `generation` was read.
    func store(_ body: ByteBuffer, for key: Key, generation: UInt64, now: NIODeadline = .now()) {
        guard body.readableBytes <= Self.maxAnswerBytes else { return }
        state.withLockedValue { state in
            guard state.generation == generation else { return }
            if state.entries.count >= Self.maxEntries, state.entries[key] == nil {
                state.entries.removeAll(keepingCapacity: true)
            }
            state.entries[key] = Entry(body: body, generation: generation, expires: now + lifetime)
        }
    }

    /// Forgets every answer. Call after a write has committed (not before: a read between an
    /// early invalidation and the commit would store the old rows again).
    package func invalidate() {
        state.withLockedValue { state in
            state.generation &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }
}
