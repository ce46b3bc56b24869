import Synchronization

/// The decoded tiles most recently drawn, bounded in bytes: panning and redrawing a view decode
/// each tile once, and the least recently used tiles go first when the budget is full.
/// Locked, because a picture's halves and the terminal's frames may ask from several threads.
final class DetailTileCache: Sendable {
    struct Key: Hashable {
        let level: Int
        let tile: Int
    }

    private struct State {
        var tiles: [Key: (tile: DetailTile, lastUse: Int)] = [:]
        var clock = 0
        var byteCount = 0
    }

    let budget: Int
    private let state = Mutex(State())

    init(budget: Int) { self.budget = budget }

    var count: Int { state.withLock { $0.tiles.count } }
    var byteCount: Int { state.withLock { $0.byteCount } }

    /// The cached tile, or `make`'s (stored unless it alone is over the budget). `make` runs
    /// outside the lock, so two threads may decode one tile at once; the second result wins.
    func tile(_ key: Key, make: () -> DetailTile?) -> DetailTile? {
        if let tile = state.withLock({ state -> DetailTile? in
            guard let entry = state.tiles[key] else { return nil }
            state.clock += 1
            state.tiles[key] = (entry.tile, state.clock)
            return entry.tile
        }) {
            return tile
        }
        guard let tile = make() else { return nil }
        state.withLock { state in
            state.clock += 1
            if let old = state.tiles[key] { state.byteCount -= old.tile.byteCount }
            state.tiles[key] = (tile, state.clock)
            state.byteCount += tile.byteCount
            while state.byteCount > budget, let oldest = state.tiles.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.tiles[oldest.key] = nil
                state.byteCount -= oldest.value.tile.byteCount
            }
        }
        return tile
    }
}
