import Foundation
import OnTheMapModels
@_spi(WritePath) import ServerStorage

/// Fair share (Docs/Access.md): the writes per minute of one account, counted in the database so
/// that every instance shares them. The row limit is checked by the insert itself
/// (`WritableStorage.insert(_:maxRowsPerOwner:)`), in the same transaction.
struct FairShare: Sendable {
    let storage: any WritableStorage
    let limits: FairShareLimits

    static let window: Double = 60

    /// Counts one write of `caller` (accounts only).
    /// - Throws: `WriteRefusal.tooManyWrites` past `--max-writes-per-minute`.
    func countWrite(_ caller: Caller, now: Date = Date()) async throws {
        guard let key = caller.accountKey else { return }
        let time = now.timeIntervalSince1970
        let (writes, start) = try await storage.countWrite(accountKey: key, now: time, window: Self.window)
        guard writes > limits.maxWritesPerMinute else { return }
        throw WriteRefusal.tooManyWrites(retryAfterSeconds: max(1, Int((start + Self.window - time).rounded(.up))))
    }
}

/// Fair share's two limits (`serve --max-rows-per-account`, `--max-writes-per-minute`; in
/// `ServerConfiguration`).
package struct FairShareLimits: Sendable, Hashable {
    /// The most rows one account may have on the map.
    package var maxRowsPerAccount: Int
    /// Writes (POST, PUT, DELETE) one account may make per minute, on all instances together.
    package var maxWritesPerMinute: Int

    package init(maxRowsPerAccount: Int, maxWritesPerMinute: Int) {
        self.maxRowsPerAccount = maxRowsPerAccount
        self.maxWritesPerMinute = maxWritesPerMinute
    }
}

/// The audit log (Docs/Access.md): every moderation act, from the API or the command line. Its
/// entry is handed to the storage with the act, which writes both in one transaction: an act is
/// never committed without its entry, nor an entry without its act.
package enum AuditLog {
    /// The actor of the command line.
    package static let `operator` = "operator"

    static func entry(actor: String, action: String, target: String, reason: String? = nil, now: Date) -> AuditEntry {
        AuditEntry(at: WireDate.string(from: now), actor: actor, action: action, target: target, reason: reason)
    }
}
