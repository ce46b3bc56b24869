import ServerStorage
import Synchronization

/// The blocks this process has seen, so that a flood at a blocked subject is answered 429 from
/// memory instead of queueing a database write per attempt.
///
/// Only per-address subjects are kept (`pair:`, `address:`, `signup:`): nothing but time lifts
/// those. The per-account budget is not, since `user reset-password` (another process) lifts it.
/// Bounded: at most `capacity` entries; when full, expired ones go, and if none has expired the
/// new block is simply not kept (the database still has it).
final class BlockCache: Sendable {
    private let blocks = Mutex<[String: Double]>([:])
    private let capacity: Int

    init(capacity: Int = 10_000) { self.capacity = capacity }

    /// The latest time until which any of `subjects` is blocked, if after `now`.
    func blockedUntil(_ subjects: [String], now: Double) -> Double? {
        blocks.withLock { blocks in subjects.compactMap { blocks[$0] }.filter { $0 > now }.max() }
    }

    func remember(_ block: ThrottleBlock, now: Double) {
        guard !block.subject.hasPrefix("account:") else { return }
        blocks.withLock { blocks in
            if blocks.count >= capacity { blocks = blocks.filter { $0.value > now } }
            if blocks.count < capacity { blocks[block.subject] = block.until }
        }
    }
}
