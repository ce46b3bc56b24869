import Foundation
import Metrics
import ServerHTTP
@_spi(WritePath) import ServerStorage
import struct ServerStorage.AccountDeletion

/// A storage that reports on its database pool to swift-metrics (`/metrics`):
///
/// - `onthemap_db_pool_connections{backend}`: connections the pool may open (SQLite: readers
///   and the writer; PostgreSQL: the client's maximum);
/// - `onthemap_db_operations_in_flight{backend}`: operations waiting for or holding a connection
///   (near the pool size means requests queue for the database);
/// - `onthemap_db_operation_duration_seconds{backend,operation}`: time per operation, waiting
///   included, as a histogram.
///
/// Used only when the server records metrics; otherwise the storage is used as it is.
struct MeasuredStorage: WritableStorage {
    let base: any WritableStorage
    private let inFlight: Meter
    private let backend: String

    init(_ base: any WritableStorage) {
        _ = ServerMetrics.registry  // bootstraps swift-metrics before the metrics below are made
        self.base = base
        backend = base.backendName
        inFlight = Meter(label: "onthemap_db_operations_in_flight", dimensions: [("backend", backend)])
        Gauge(label: "onthemap_db_pool_connections", dimensions: [("backend", backend)]).record(base.connectionLimit)
    }

    var backendName: String { base.backendName }
    var connectionLimit: Int { base.connectionLimit }

    private func measure<T>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        inFlight.increment()
        let start = ContinuousClock.now
        defer {
            inFlight.decrement()
            Metrics.Timer(label: "onthemap_db_operation_duration_seconds", dimensions: [("backend", backend), ("operation", operation)])
                .record(duration: ContinuousClock.now - start)
        }
        return try await body()
    }

    func migrate() async throws { try await measure("migrate") { try await base.migrate() } }
    func close() async { await base.close() }
    func observeChangeLog(_ signal: @escaping @Sendable () -> Void) { base.observeChangeLog(signal) }
    func changeLogEnd() async throws -> Int64 { try await base.changeLogEnd() }
    func changeLog(after seq: Int64, missing: [Int64], limit: Int) async throws -> [LoggedChange] {
        try await base.changeLog(after: seq, missing: missing, limit: limit)
    }
    func pruneChangeLog(before: Double) async throws { try await base.pruneChangeLog(before: before) }

    func locations(_ query: ListQuery) async throws -> (rows: [StoredLocation], count: Int?) {
        try await measure("locations") { try await base.locations(query) }
    }
    func locationList(_ query: ListQuery) async throws -> [UInt8] {
        try await measure("locations") { try await base.locationList(query) }
    }
    func location(objectId: String) async throws -> StoredLocation? {
        try await measure("location") { try await base.location(objectId: objectId) }
    }
    func insert(_ location: StoredLocation) async throws { try await measure("insert_location") { try await base.insert(location) } }
    func insert(_ locations: [StoredLocation]) async throws {
        try await measure("insert_locations") { try await base.insert(locations) }
    }
    func update(objectId: String, changes: LocationChanges, updatedAt: String, owner: String?) async throws -> WriteOutcome {
        try await measure("update_location") {
            try await base.update(objectId: objectId, changes: changes, updatedAt: updatedAt, owner: owner)
        }
    }
    func delete(objectId: String, owner: String?, audit: AuditEntry?) async throws -> WriteOutcome {
        try await measure("delete_location") { try await base.delete(objectId: objectId, owner: owner, audit: audit) }
    }
    func locationCount() async throws -> Int { try await measure("location_count") { try await base.locationCount() } }
    func queryPlan(_ query: ListQuery) async throws -> [String] { try await measure("query_plan") { try await base.queryPlan(query) } }
    func fillSynthetic(count: Int) async throws { try await measure("fill_synthetic") { try await base.fillSynthetic(count: count) } }
    func isReachable() async throws { try await measure("ping") { try await base.isReachable() } }

    func insert(_ account: Account) async throws { try await measure("insert_account") { try await base.insert(account) } }
    func migrateEmailKeys() async throws -> [EmailKeyCollision] {
        try await measure("migrate") { try await base.migrateEmailKeys() }
    }
    func account(email: String) async throws -> Account? { try await measure("account") { try await base.account(email: email) } }
    func account(key: String) async throws -> Account? { try await measure("account") { try await base.account(key: key) } }
    func accountKey(for identity: ProviderIdentity) async throws -> String? {
        try await measure("identity") { try await base.accountKey(for: identity) }
    }
    func insert(_ account: Account, linking identity: ProviderIdentity) async throws {
        try await measure("insert_account") { try await base.insert(account, linking: identity) }
    }
    func insert(_ session: StoredSession) async throws { try await measure("insert_session") { try await base.insert(session) } }
    func session(idHash: String, now: Double) async throws -> StoredSession? {
        try await measure("session") { try await base.session(idHash: idHash, now: now) }
    }
    func session(xsrfHash: String, now: Double) async throws -> StoredSession? {
        try await measure("session") { try await base.session(xsrfHash: xsrfHash, now: now) }
    }
    func deleteSession(idHash: String) async throws { try await measure("delete_session") { try await base.deleteSession(idHash: idHash) } }

    func recordAttempt(subjects: [ThrottleSubject], now: Double) async throws -> ThrottleBlock? {
        try await measure("record_attempt") { try await base.recordAttempt(subjects: subjects, now: now) }
    }
    func recordSuccess(clear: [String], release: [String], trust: String?, now: Double) async throws {
        try await measure("record_success") { try await base.recordSuccess(clear: clear, release: release, trust: trust, now: now) }
    }
    func isTrusted(_ trust: String, since: Double) async throws -> Bool {
        try await measure("is_trusted") { try await base.isTrusted(trust, since: since) }
    }
    func forgetTrust(before: Double) async throws {
        try await measure("forget_trust") { try await base.forgetTrust(before: before) }
    }

    func insert(_ invite: StoredInvite) async throws { try await measure("insert_invite") { try await base.insert(invite) } }
    func invites() async throws -> [StoredInvite] { try await measure("invites") { try await base.invites() } }
    func deleteInvites(hashPrefix: String) async throws -> Int {
        try await measure("delete_invites") { try await base.deleteInvites(hashPrefix: hashPrefix) }
    }
    func inviteUsable(codeHash: String, now: Double) async throws -> Bool {
        try await measure("invite_usable") { try await base.inviteUsable(codeHash: codeHash, now: now) }
    }
    func insert(_ account: Account, spendingInvite codeHash: String, now: Double) async throws {
        try await measure("insert_account_invite") { try await base.insert(account, spendingInvite: codeHash, now: now) }
    }

    func accounts() async throws -> [Account] { try await measure("accounts") { try await base.accounts() } }
    func updatePassword(key: String, passwordHash: String) async throws -> Bool {
        try await measure("update_password") { try await base.updatePassword(key: key, passwordHash: passwordHash) }
    }
    func deleteAccount(key: String, audit: AuditEntry) async throws -> AccountDeletion? {
        try await measure("delete_account") { try await base.deleteAccount(key: key, audit: audit) }
    }

    func insert(_ location: StoredLocation, maxRowsPerOwner: Int) async throws -> Bool {
        try await measure("insert_location") { try await base.insert(location, maxRowsPerOwner: maxRowsPerOwner) }
    }
    func setHidden(objectId: String, mark: HiddenMark?, audit: AuditEntry) async throws -> Bool {
        try await measure("set_hidden") { try await base.setHidden(objectId: objectId, mark: mark, audit: audit) }
    }
    func hasHiddenLocations(owner: String) async throws -> Bool {
        try await measure("has_hidden") { try await base.hasHiddenLocations(owner: owner) }
    }
    func setRole(key: String, role: AccountRole, audit: AuditEntry) async throws -> Bool {
        try await measure("set_role") { try await base.setRole(key: key, role: role, audit: audit) }
    }
    func setSuspended(key: String, at: String?, audit: AuditEntry) async throws -> Bool {
        try await measure("set_suspended") { try await base.setSuspended(key: key, at: at, audit: audit) }
    }
    func countWrite(accountKey: String, now: Double, window: Double) async throws -> (writes: Int, windowStart: Double) {
        try await measure("count_write") { try await base.countWrite(accountKey: accountKey, now: now, window: window) }
    }
    func restore(from path: String, replacingNonEmpty: Bool, audit: @Sendable (DatabaseCounts) -> AuditEntry) async throws
        -> RestoreOutcome
    {
        try await measure("restore") { try await base.restore(from: path, replacingNonEmpty: replacingNonEmpty, audit: audit) }
    }
    func auditEntries(since: String?) async throws -> [AuditEntry] {
        try await measure("audit") { try await base.auditEntries(since: since) }
    }
}
