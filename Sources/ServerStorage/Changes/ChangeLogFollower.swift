import Foundation
import Logging
import NIOConcurrencyHelpers

/// Reads the change log that the database's triggers write (`ChangeLogSQL`) and hands each new
/// entry, in log order, to one delivery function — in the follower's own task, never in a
/// writer's request. Every instance runs one, from the log's end at its start.
///
/// It reads when the storage signals that something may have been logged (this process's commits
/// on SQLite; any instance's NOTIFY on PostgreSQL) and at least every `pollInterval`, which
/// bounds how late a write by another process is seen when no signal reaches this one (another
/// process on the same SQLite file; a PostgreSQL notification lost while reconnecting).
///
/// On PostgreSQL a sequence number is taken at insert and becomes visible at commit, so a later
/// number can be read before an earlier one commits: numbers skipped over are asked for again on
/// each read for `gapSeconds`, and delivered if they appear (a rolled-back write leaves its
/// number unused for good). SQLite has one writer at a time and never shows such gaps.
package final class ChangeLogFollower: Sendable {
    package typealias Deliver = @Sendable (LoggedChange) async -> Void

    static let batch = 500
    static let gapSeconds = 10.0
    /// At most this many skipped numbers are asked for again (more means far more concurrent
    /// writers than one database serves; the oldest are given up).
    static let maxGaps = 100

    private let storage: any ServerStorage
    private let pollInterval: Duration
    private let logger: Logger
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>
    private let tasks = NIOLockedValueBox<[Task<Void, Never>]>([])
    /// The last sequence number read (tests wait on it).
    private let position = NIOLockedValueBox<Int64>(0)

    package init(storage: any ServerStorage, pollInterval: Duration, logger: Logger) {
        self.storage = storage
        self.pollInterval = pollInterval
        self.logger = logger
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Starts following from the log's end now; `deliver` is called for each entry after it.
    package func start(_ deliver: @escaping Deliver) async throws {
        let end = try await storage.changeLogEnd()
        position.withLockedValue { $0 = end }
        storage.observeChangeLog { [wake] in wake.yield() }
        let poll = Task { [wake, pollInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: pollInterval)
                wake.yield()
            }
        }
        let follow = Task { [self] in await self.follow(from: end, deliver) }
        tasks.withLockedValue { $0 = [poll, follow] }
    }

    /// Reads the log now (after a write of this process that the storage cannot signal).
    package func nudge() { wake.yield() }

    /// The last sequence number read so far.
    package var lastRead: Int64 { position.withLockedValue { $0 } }

    package func stop() async {
        wake.finish()
        let running = tasks.withLockedValue { $0 }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    private func follow(from end: Int64, _ deliver: Deliver) async {
        var cursor = end
        var gaps: [Int64: ContinuousClock.Instant] = [:]
        var lastPrune = ContinuousClock.now
        for await _ in wakes {
            do {
                var full = true
                while full, !Task.isCancelled {
                    let entries = try await storage.changeLog(after: cursor, missing: gaps.keys.sorted(), limit: Self.batch)
                    full = entries.count == Self.batch
                    let now = ContinuousClock.now
                    for entry in entries {
                        if entry.seq > cursor {
                            for skipped in max(cursor + 1, entry.seq - Int64(Self.maxGaps))..<entry.seq { gaps[skipped] = now }
                            cursor = entry.seq
                        } else {
                            gaps[entry.seq] = nil
                        }
                        await deliver(entry)
                    }
                    position.withLockedValue { $0 = cursor }
                    gaps = gaps.filter { now - $0.value < .seconds(Self.gapSeconds) }
                    if gaps.count > Self.maxGaps {
                        gaps = Dictionary(uniqueKeysWithValues: gaps.sorted { $0.key > $1.key }.prefix(Self.maxGaps).map { ($0.key, $0.value) })
                    }
                }
                if ContinuousClock.now - lastPrune > .seconds(60) {
                    lastPrune = ContinuousClock.now
                    try await storage.pruneChangeLog(before: Date().timeIntervalSince1970 - ChangeLogSQL.keepSeconds)
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("could not read the change log; retrying", metadata: ["error": "\(String(describing: type(of: error)))"])
            }
        }
    }
}
