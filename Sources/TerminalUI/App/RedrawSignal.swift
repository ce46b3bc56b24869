import Foundation

/// Between the run loop and Observation: `fire` is called (from whichever thread changed the
/// state) when something a tracked frame read changes; the loop `take`s that as "draw again".
/// It stays armed while that tracking has not fired, for the terminal size it was made at: the
/// state a frame reads only changes through observed state or the size (the too-small screen
/// reads nothing), so a frame drawn while armed needs no tracking of its own.
final class RedrawSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var changed = false
    private var armedSize: (width: Int, height: Int)?

    /// Something observed changed: draw again, and track the next frame afresh.
    func fire() {
        lock.withLock {
            changed = true
            armedSize = nil
        }
    }

    /// Whether it fired since the last call, clearing that.
    func take() -> Bool {
        lock.withLock {
            defer { changed = false }
            return changed
        }
    }

    /// A tracking for frames of `size` is about to be installed.
    func arm(for size: (width: Int, height: Int)) {
        lock.withLock { armedSize = size }
    }

    /// Whether a tracking made at `size` is still waiting for a change.
    func isArmed(for size: (width: Int, height: Int)) -> Bool {
        lock.withLock { armedSize.map { $0 == size } ?? false }
    }
}
