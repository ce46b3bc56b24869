import Foundation
import OnTheMapModels
import ServerStorage

/// Fair share (Docs/Access.md): the writes per minute of one account, counted in the database so
/// that every instance shares them. The row limit is checked by the insert itself
/// (`WritableStorage.insert(_:maxRowsPerOwner:)`), in the same transaction.
struct FairShare: Sendable {
    let storage: any WritableStorage
    let configuration: ServerConfiguration

    static let window: Double = 60

    /// Counts one write of `caller` (accounts only).
    /// - Throws: `WriteRefusal.tooManyWrites` past `--max-writes-per-minute`.
    func countWrite(_ caller: Caller, now: Date = Date()) async throws {
        guard let key = caller.accountKey else { return }
        let time = now.timeIntervalSince1970
        let (writes, start) = try await storage.countWrite(accountKey: key, now: time, window: Self.window)
        guard writes > configuration.maxWritesPerMinute else { return }
        throw WriteRefusal.tooManyWrites(retryAfterSeconds: max(1, Int((start + Self.window - time).rounded(.up))))
    }
}

/// Writes the audit log (Docs/Access.md): every moderation act, from the API or the command line.
struct AuditLog: Sendable {
    let storage: any WritableStorage

    /// The actor of the command line.
    static let `operator` = "operator"

    func record(actor: String, action: String, target: String, reason: String? = nil, now: Date = Date()) async throws {
        try await storage.insert(
            AuditEntry(at: WireDate.string(from: now), actor: actor, action: action, target: target, reason: reason))
    }
}
