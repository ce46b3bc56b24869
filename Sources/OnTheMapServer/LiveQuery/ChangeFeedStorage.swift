import Foundation

/// The one hook into the write path: a storage that, after each StudentLocation write the base
/// storage reports done (committed), reads the row back and sends the row before and after to
/// the change transport. Everything else is passed through unchanged.
///
/// The row before is read just before the write and the row after just after it, outside the
/// write's transaction: a concurrent write to the same row in between can make one event's
/// `original` stale, never lose the latest state (the last event always carries the row as read
/// after the last write). Bulk inserts (seeding, `import`) send one change per row.
struct ChangeFeedStorage: ServerStorage {
    let base: any ServerStorage
    let transport: any LocationChangeTransport

    var backendName: String { base.backendName }
    var connectionLimit: Int { base.connectionLimit }

    func insert(_ location: StoredLocation) async throws {
        try await base.insert(location)
        await transport.send(LocationChange(before: nil, after: location))
    }
    func insert(_ locations: [StoredLocation]) async throws {
        try await base.insert(locations)
        for location in locations { await transport.send(LocationChange(before: nil, after: location)) }
    }
    func update(objectId: String, changes: LocationChanges, updatedAt: String, owner: String?) async throws -> WriteOutcome {
        let before = try await base.location(objectId: objectId)
        let outcome = try await base.update(objectId: objectId, changes: changes, updatedAt: updatedAt, owner: owner)
        if outcome == .done, let after = try? await base.location(objectId: objectId) {
            await transport.send(LocationChange(before: before, after: after))
        }
        return outcome
    }
    func delete(objectId: String, owner: String?) async throws -> WriteOutcome {
        let before = try await base.location(objectId: objectId)
        let outcome = try await base.delete(objectId: objectId, owner: owner)
        if outcome == .done, let before { await transport.send(LocationChange(before: before, after: nil)) }
        return outcome
    }

    func insert(_ location: StoredLocation, maxRowsPerOwner: Int) async throws -> Bool {
        let inserted = try await base.insert(location, maxRowsPerOwner: maxRowsPerOwner)
        if inserted { await transport.send(LocationChange(before: nil, after: location)) }
        return inserted
    }
    func setHidden(objectId: String, mark: HiddenMark?) async throws -> Bool {
        let before = try await base.location(objectId: objectId)
        let done = try await base.setHidden(objectId: objectId, mark: mark)
        if done, let after = try? await base.location(objectId: objectId) {
            await transport.send(LocationChange(before: before, after: after))
        }
        return done
    }
    /// Deleting an account deletes its rows: each is sent as deleted.
    func deleteAccount(key: String) async throws -> AccountDeletion? {
        let rows = try await ownedRows(key)
        let deletion = try await base.deleteAccount(key: key)
        if deletion != nil {
            for row in rows { await transport.send(LocationChange(before: row, after: nil)) }
        }
        return deletion
    }
    /// Suspending hides the account's rows (unsuspending shows them): each changed row is sent.
    func setSuspended(key: String, at: String?) async throws -> Bool {
        let before = try await ownedRows(key)
        let done = try await base.setSuspended(key: key, at: at)
        if done {
            let after = Dictionary(try await ownedRows(key).map { ($0.objectId, $0) }) { first, _ in first }
            for row in before {
                if let now = after[row.objectId], now != row { await transport.send(LocationChange(before: row, after: now)) }
            }
        }
        return done
    }

    /// Every row of one account, hidden ones included.
    private func ownedRows(_ key: String) async throws -> [StoredLocation] {
        try await base.locations(.rows(of: key, limit: 100_000)).rows
    }

    // MARK: Passed through

    func hasHiddenLocations(owner: String) async throws -> Bool { try await base.hasHiddenLocations(owner: owner) }
    func setRole(key: String, role: AccountRole) async throws -> Bool { try await base.setRole(key: key, role: role) }
    func countWrite(accountKey: String, now: Double, window: Double) async throws -> (writes: Int, windowStart: Double) {
        try await base.countWrite(accountKey: accountKey, now: now, window: window)
    }
    func insert(_ entry: AuditEntry) async throws { try await base.insert(entry) }
    func auditEntries(since: String?) async throws -> [AuditEntry] { try await base.auditEntries(since: since) }

    func migrate() async throws { try await base.migrate() }
    func close() async {
        await transport.close()
        await base.close()
    }
    func isReachable() async throws { try await base.isReachable() }
    func observeLocationChanges(_ onChange: @escaping @Sendable () -> Void) { base.observeLocationChanges(onChange) }
    func locations(_ query: ListQuery) async throws -> (rows: [StoredLocation], count: Int?) { try await base.locations(query) }
    func locationList(_ query: ListQuery) async throws -> [UInt8] { try await base.locationList(query) }
    func location(objectId: String) async throws -> StoredLocation? { try await base.location(objectId: objectId) }
    func locationCount() async throws -> Int { try await base.locationCount() }
    func queryPlan(_ query: ListQuery) async throws -> [String] { try await base.queryPlan(query) }
    func fillSynthetic(count: Int) async throws { try await base.fillSynthetic(count: count) }
    func insert(_ account: Account) async throws { try await base.insert(account) }
    func account(email: String) async throws -> Account? { try await base.account(email: email) }
    func account(key: String) async throws -> Account? { try await base.account(key: key) }
    func insert(_ session: StoredSession) async throws { try await base.insert(session) }
    func session(idHash: String, now: Double) async throws -> StoredSession? { try await base.session(idHash: idHash, now: now) }
    func session(xsrfHash: String, now: Double) async throws -> StoredSession? {
        try await base.session(xsrfHash: xsrfHash, now: now)
    }
    func deleteSession(idHash: String) async throws { try await base.deleteSession(idHash: idHash) }
    func accountKey(for identity: ProviderIdentity) async throws -> String? { try await base.accountKey(for: identity) }
    func insert(_ account: Account, linking identity: ProviderIdentity) async throws {
        try await base.insert(account, linking: identity)
    }
    func recordAttempt(subjects: [ThrottleSubject], now: Double) async throws -> ThrottleBlock? {
        try await base.recordAttempt(subjects: subjects, now: now)
    }
    func recordSuccess(clear: [String], release: [String], trust: String?, now: Double) async throws {
        try await base.recordSuccess(clear: clear, release: release, trust: trust, now: now)
    }
    func isTrusted(_ trust: String, since: Double) async throws -> Bool { try await base.isTrusted(trust, since: since) }
    func forgetTrust(before: Double) async throws { try await base.forgetTrust(before: before) }
    func insert(_ invite: StoredInvite) async throws { try await base.insert(invite) }
    func invites() async throws -> [StoredInvite] { try await base.invites() }
    func deleteInvites(hashPrefix: String) async throws -> Int { try await base.deleteInvites(hashPrefix: hashPrefix) }
    func inviteUsable(codeHash: String, now: Double) async throws -> Bool {
        try await base.inviteUsable(codeHash: codeHash, now: now)
    }
    func insert(_ account: Account, spendingInvite codeHash: String, now: Double) async throws {
        try await base.insert(account, spendingInvite: codeHash, now: now)
    }
    func accounts() async throws -> [Account] { try await base.accounts() }
    func updatePassword(key: String, passwordHash: String) async throws -> Bool {
        try await base.updatePassword(key: key, passwordHash: passwordHash)
    }
}

extension ServerStorage {
    /// The transport this storage's changes travel by to every instance: in-process unless the
    /// storage offers one that crosses processes (PostgreSQL: NOTIFY).
    package func makeChangeTransport() -> any LocationChangeTransport {
        (self as? any CrossProcessChanges)?.makeCrossProcessTransport() ?? InProcessChangeTransport()
    }
}

/// A storage shared by several processes, whose changes must reach them all.
package protocol CrossProcessChanges: Sendable {
    func makeCrossProcessTransport() -> any LocationChangeTransport
}
