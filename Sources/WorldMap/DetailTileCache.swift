#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The decoded tiles most recently drawn, bounded in bytes: panning and redrawing a view decode
/// each tile once, and the least recently used tiles go first when the budget is full.
/// Locked, because a picture's halves and the terminal's frames may ask from several threads.
final class DetailTileCache: @unchecked Sendable {
    struct Key: Hashable {
        let level: Int
        let tile: Int
    }

    let budget: Int
    private var tiles: [Key: (tile: DetailTile, lastUse: Int)] = [:]
    private var clock = 0
    private(set) var byteCount = 0
    private let lock: UnsafeMutablePointer<pthread_mutex_t>

    init(budget: Int) {
        self.budget = budget
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    var count: Int { locked { tiles.count } }

    /// The cached tile, or `make`'s (stored unless it alone is over the budget). `make` runs
    /// outside the lock, so two threads may decode one tile at once; the second result wins.
    func tile(_ key: Key, make: () -> DetailTile?) -> DetailTile? {
        if let tile = locked({ () -> DetailTile? in
            guard let entry = tiles[key] else { return nil }
            clock += 1
            tiles[key] = (entry.tile, clock)
            return entry.tile
        }) {
            return tile
        }
        guard let tile = make() else { return nil }
        locked {
            clock += 1
            if let old = tiles[key] { byteCount -= old.tile.byteCount }
            tiles[key] = (tile, clock)
            byteCount += tile.byteCount
            while byteCount > budget, let oldest = tiles.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                tiles[oldest.key] = nil
                byteCount -= oldest.value.tile.byteCount
            }
        }
        return tile
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }
}
