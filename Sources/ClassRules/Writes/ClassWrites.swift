import Foundation
import OnTheMapModels
@_spi(WritePath) import ServerStorage
import struct ServerStorage.AccountDeletion

/// The one write path (Docs/Architecture.md, "One write path"): every write of a StudentLocation
/// row or an account — the REST API's, every `onthemap-server` command's, `import`'s and the demo
/// seed's — is a method here. Each takes a `WritePermit`, the rule's (`Access.permit`) proof that
/// its caller may do that act, and checks the permit is for this write and its target; then it
/// checks what the permit cannot know ahead (the row is there and visible to the caller, is the
/// caller's), the limits that REST and the command line share (the hide reason), counts fair
/// share, writes, and audits the moderation acts. The record of the change is not for it to
/// remember: the database's triggers log every write in its own transaction, and every
/// instance's `ChangeLogFollower` reads that log.
///
/// Only this type holds a `WritableStorage` (privately); the rest of the server sees
/// `any ServerStorage`, which has no write to call.
package struct ClassWrites: Sendable {
    private let storage: any WritableStorage
    private let limits: FairShareLimits
    private var fairShare: FairShare { FairShare(storage: storage, limits: limits) }

    package init(storage: any WritableStorage, limits: FairShareLimits) {
        self.storage = storage
        self.limits = limits
    }

    /// The longest hide reason, in bytes.
    package static let maxReasonBytes = 200

    /// Checks a hide reason, for the API and the command line alike: 1 to `maxReasonBytes`
    /// bytes, not only spaces.
    package static func checkReason(_ reason: String) throws(WriteRefusal) {
        guard !reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .invalid("A reason is required to hide a location.")
        }
        guard reason.utf8.count <= maxReasonBytes else {
            throw .invalid("The reason must be at most \(maxReasonBytes) bytes.")
        }
    }

    /// The permit's caller, when the permit is for `act`; a permit for another act or target is
    /// refused (403), whatever it allows.
    private func permitted(_ permit: WritePermit, for act: WriteAct) throws(WriteRefusal) -> Caller {
        guard permit.act == act else { throw .access(.forbidden("This write's permit is for another act.")) }
        return permit.caller
    }

    // MARK: Locations

    /// A new row of `changes` for the permit's caller, with a new objectId; fair share counted.
    package func createLocation(_ changes: LocationChanges, _ permit: WritePermit, now: Date = Date()) async throws -> StoredLocation {
        let caller = try permitted(permit, for: .createLocation(uniqueKey: changes.uniqueKey))
        try await fairShare.countWrite(caller, now: now)
        let time = WireDate.string(from: now)
        let row = StoredLocation(
            objectId: RandomID.alphanumeric(10), uniqueKey: changes.uniqueKey, firstName: changes.firstName,
            lastName: changes.lastName, mapString: changes.mapString, mediaURL: changes.mediaURL,
            latitude: changes.latitude, longitude: changes.longitude, createdAt: time, updatedAt: time)
        if caller.accountKey != nil {
            guard try await storage.insert(row, maxRowsPerOwner: limits.maxRowsPerAccount) else {
                throw WriteRefusal.rowLimit(limits.maxRowsPerAccount)
            }
        } else {
            try await storage.insert(row)
        }
        return row
    }

    /// Applies `changes` to a row the permit's caller may write; its new `updatedAt`.
    package func updateLocation(objectId: String, _ changes: LocationChanges, _ permit: WritePermit, now: Date = Date())
        async throws -> String
    {
        let caller = try permitted(permit, for: .updateLocation(objectId: objectId))
        let owner: String?
        do { owner = try Access.requiredOwner(for: .update, caller) } catch { throw WriteRefusal.access(error) }
        if let owner, let key = changes.uniqueKey, key != owner {
            throw WriteRefusal.access(.forbidden("You cannot give a location to another account."))
        }
        _ = try await visibleRow(objectId: objectId, caller)
        try await fairShare.countWrite(caller, now: now)
        let time = WireDate.string(from: now)
        switch try await storage.update(objectId: objectId, changes: changes, updatedAt: time, owner: owner) {
        case .done: return time
        case .notFound: throw WriteRefusal.notFound
        case .notOwner: throw try await refusalOfOthersRow(objectId: objectId, caller)
        }
    }

    /// The row, when `caller` may see it; a row it may not see is answered as no row at all (404,
    /// as a read of it is), so that a write does not tell a hidden row exists.
    private func visibleRow(objectId: String, _ caller: Caller) async throws -> StoredLocation {
        guard let row = try await storage.location(objectId: objectId), Access.maySee(row, caller) else {
            throw WriteRefusal.notFound
        }
        return row
    }

    /// The refusal of a write the storage found to be of another's row: 404 when the row is (by
    /// now) one `caller` may not see (thrown by `visibleRow`), else 403.
    private func refusalOfOthersRow(objectId: String, _ caller: Caller) async throws -> WriteRefusal {
        _ = try await visibleRow(objectId: objectId, caller)
        return WriteRefusal.access(.forbidden("This location belongs to another account."))
    }

    /// Deletes a row: a caller's own, any row for a moderator (audited when another's) or under
    /// `--open-writes` (the 2015 Parse contract), any row for the operator (audited).
    package func deleteLocation(objectId: String, _ permit: WritePermit, now: Date = Date()) async throws {
        let caller = try permitted(permit, for: .deleteLocation(objectId: objectId))
        let owner: String?
        do { owner = try Access.requiredOwner(for: .delete, caller) } catch { throw WriteRefusal.access(error) }
        let row = try await visibleRow(objectId: objectId, caller)
        try await fairShare.countWrite(caller, now: now)
        // The operator's delete, and a moderator's of another's row, are moderation acts: audited.
        var auditedActor: String?
        if caller.isOperator { auditedActor = AuditLog.operator }
        if case .account(let key, .moderator) = caller.kind, row.uniqueKey != key { auditedActor = key }
        let entry = auditedActor.map { AuditLog.entry(actor: $0, action: "delete-location", target: objectId, now: now) }
        switch try await storage.delete(objectId: objectId, owner: owner, audit: entry) {
        case .done: return
        case .notFound: throw WriteRefusal.notFound
        case .notOwner: throw try await refusalOfOthersRow(objectId: objectId, caller)
        }
    }

    /// Hides a row with `reason` (checked by `checkReason`), or shows it again (`nil`): moderators
    /// and the operator; audited. The time of the act.
    @discardableResult
    package func setHidden(objectId: String, reason: String?, _ permit: WritePermit, now: Date = Date()) async throws -> String {
        let caller = try permitted(permit, for: .setHidden(objectId: objectId))
        do { try Access.checkModerate(caller) } catch { throw WriteRefusal.access(error) }
        let actor = caller.accountKey ?? AuditLog.operator
        if let reason { try Self.checkReason(reason) }
        let time = WireDate.string(from: now)
        let mark = reason.map { HiddenMark(at: time, reason: $0, by: actor) }
        let entry = AuditLog.entry(actor: actor, action: reason == nil ? "unhide" : "hide", target: objectId, reason: reason, now: now)
        guard try await storage.setHidden(objectId: objectId, mark: mark, audit: entry) else { throw WriteRefusal.notFound }
        return time
    }

    /// Adds rows as they are (the operator's `import`, the demo seed), in one transaction.
    package func importLocations(_ rows: [StoredLocation], _ permit: WritePermit) async throws {
        _ = try permitted(permit, for: .importLocations)
        try await storage.insert(rows)
    }

    /// Adds `count` synthetic rows (benchmarks), announced to no subscriber.
    package func fillSynthetic(count: Int, _ permit: WritePermit) async throws {
        _ = try permitted(permit, for: .fillSynthetic)
        try await storage.fillSynthetic(count: count)
    }

    /// Replaces the whole database with the backup file at `path` (the operator's `restore`),
    /// unless it is not empty and `replacingNonEmpty` is false (`.notEmpty`, nothing written).
    /// Audited — who, the file, what it held — in the restored database, by the write that makes
    /// it live; that write also tells every instance to reload (the change log's `reload`).
    package func restoreDatabase(from path: String, replacingNonEmpty: Bool, _ permit: WritePermit, now: Date = Date())
        async throws -> RestoreOutcome
    {
        _ = try permitted(permit, for: .restoreDatabase(from: path))
        return try await storage.restore(from: path, replacingNonEmpty: replacingNonEmpty) { counts in
            AuditLog.entry(actor: AuditLog.operator, action: "restore", target: path, reason: "\(counts)", now: now)
        }
    }

    // MARK: Accounts

    /// A new account: with `invite` (a code's hash) one use of it is taken in the same
    /// transaction; with `identity` the provider identity is linked in it.
    package func createAccount(_ account: Account, spendingInvite invite: String? = nil, _ permit: WritePermit, now: Date = Date())
        async throws
    {
        _ = try permitted(permit, for: .createAccount)
        if let invite {
            try await storage.insert(account, spendingInvite: invite, now: now.timeIntervalSince1970)
        } else {
            try await storage.insert(account)
        }
    }

    /// A new account made from a provider profile, linked to its identity.
    package func createAccount(_ account: Account, linking identity: ProviderIdentity, _ permit: WritePermit) async throws {
        _ = try permitted(permit, for: .createAccount)
        try await storage.insert(account, linking: identity)
    }

    /// A new password hash; ends the account's sessions.
    package func setPassword(key: String, passwordHash: String, _ permit: WritePermit) async throws {
        _ = try permitted(permit, for: .setPassword(key: key))
        guard try await storage.updatePassword(key: key, passwordHash: passwordHash) else { throw WriteRefusal.notFound }
    }

    /// Sets an account's role (the operator); audited.
    package func setRole(key: String, role: AccountRole, _ permit: WritePermit, now: Date = Date()) async throws {
        _ = try permitted(permit, for: .setRole(key: key))
        let entry = AuditLog.entry(actor: AuditLog.operator, action: "role", target: key, reason: role.rawValue, now: now)
        guard try await storage.setRole(key: key, role: role, audit: entry) else { throw WriteRefusal.notFound }
    }

    /// Suspends an account (its sessions end, its rows are hidden) or lets it back (the operator);
    /// audited.
    package func setSuspended(key: String, suspended: Bool, reason: String?, _ permit: WritePermit, now: Date = Date())
        async throws
    {
        _ = try permitted(permit, for: .setSuspended(key: key))
        let entry = AuditLog.entry(
            actor: AuditLog.operator, action: suspended ? "suspend" : "unsuspend", target: key, reason: reason, now: now)
        guard try await storage.setSuspended(key: key, at: suspended ? WireDate.string(from: now) : nil, audit: entry) else {
            throw WriteRefusal.notFound
        }
    }

    /// Deletes an account, its sessions and its rows: by the account itself (a caller whose key
    /// it is) or the operator; audited.
    package func deleteAccount(key: String, _ permit: WritePermit, now: Date = Date()) async throws -> AccountDeletion {
        let caller = try permitted(permit, for: .deleteAccount(key: key))
        let actor = caller.isOperator ? AuditLog.operator : key
        let entry = AuditLog.entry(actor: actor, action: "delete-account", target: key, now: now)
        guard let deleted = try await storage.deleteAccount(key: key, audit: entry) else { throw WriteRefusal.notFound }
        return deleted
    }
}
