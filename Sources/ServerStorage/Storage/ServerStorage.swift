/// Everything the server keeps. `SQLiteStorage` is the default; a PostgreSQL implementation
/// can stand beside it. Implementations hold no per-process state that matters across
/// instances: sessions live in the database.
///
/// Public, as are the types its requirements name, because `WritableStorage`, which refines it,
/// is SPI and so public; the package has no library product, so public reaches no target that
/// `package` did not.
public protocol ServerStorage: Sendable {
    /// Creates or upgrades the schema.
    func migrate() async throws
    /// Releases connections; the storage is not used afterwards.
    func close() async
    /// `sqlite` or `postgres` (metrics).
    var backendName: String { get }
    /// The most connections its pool opens at once (metrics).
    var connectionLimit: Int { get }
    /// Throws unless the database answers a trivial read (`/healthz`).
    func isReachable() async throws

    // MARK: Locations

    /// The rows matching `query` (and its `visibility`), in its order and page, and the total
    /// match count when asked.
    func locations(_ query: ListQuery) async throws -> (rows: [StoredLocation], count: Int?)
    /// The same rows and count as the list's JSON answer (`LocationJSON.writeList`); SQLite writes
    /// it from its statement's columns in place, others from `locations` (the default).
    func locationList(_ query: ListQuery) async throws -> [UInt8]
    func location(objectId: String) async throws -> StoredLocation?
    func locationCount() async throws -> Int
    /// The database's plan for `query`, one line per step (documentation and tests).
    func queryPlan(_ query: ListQuery) async throws -> [String]

    // MARK: The change log (written by the database's triggers; `ChangeLogSQL`)

    /// The last sequence number in the change log (0 when empty).
    func changeLogEnd() async throws -> Int64
    /// The entries after `seq`, and those among `missing` (numbers skipped before, which may have
    /// committed since), oldest first, at most `limit`.
    func changeLog(after seq: Int64, missing: [Int64], limit: Int) async throws -> [LoggedChange]
    /// Deletes the entries logged before `before` (seconds since 1970).
    func pruneChangeLog(before: Double) async throws
    /// Calls `signal` (from any thread) soon after a change may have been logged — as far as the
    /// database can tell: this process's commits (SQLite), any instance's (PostgreSQL NOTIFY) —
    /// until `close()`. `ChangeLogFollower` polls as well, for what no signal reaches.
    func observeChangeLog(_ signal: @escaping @Sendable () -> Void)

    // MARK: Accounts and sessions

    func account(email: String) async throws -> Account?
    func account(key: String) async throws -> Account?
    func insert(_ session: StoredSession) async throws
    /// The session whose id hashes to `idHash`, if it has not expired at `now`.
    func session(idHash: String, now: Double) async throws -> StoredSession?
    /// The session whose XSRF token hashes to `xsrfHash`, if it has not expired at `now`.
    func session(xsrfHash: String, now: Double) async throws -> StoredSession?
    func deleteSession(idHash: String) async throws

    // MARK: Provider identities (Facebook, OAuth device login)

    /// The key of the account linked to `identity`, if any.
    func accountKey(for identity: ProviderIdentity) async throws -> String?

    // MARK: Login and sign-up throttle (shared by every instance on the database)

    /// Counts one attempt against each subject in order, in one transaction, each with one
    /// atomic upsert that returns the new count, and stops at the first subject that is over its
    /// limit (the later ones are not counted). A subject's count restarts when its window has
    /// passed (and it is not blocked) or its block has; the attempt that takes it past `limit`
    /// blocks it until `now + block`. Returns that subject's key and the time (seconds since
    /// 1970) until which it is blocked, or `nil` when the attempt may go on.
    func recordAttempt(subjects: [ThrottleSubject], now: Double) async throws -> ThrottleBlock?
    /// After a good login: deletes the `clear` subjects, takes one attempt back from the
    /// `release` subjects (a good login is no guess), and marks `trust` (if any) as trusted at `now`.
    func recordSuccess(clear: [String], release: [String], trust: String?, now: Double) async throws
    /// Whether `trust` was marked trusted after `since`.
    func isTrusted(_ trust: String, since: Double) async throws -> Bool
    /// Deletes the trust marks set at or before `before` (those `isTrusted` no longer counts), so
    /// that the table holds only the pairs that logged in within the trust period.
    func forgetTrust(before: Double) async throws

    // MARK: Invites

    func insert(_ invite: StoredInvite) async throws
    /// Every invite, newest first.
    func invites() async throws -> [StoredInvite]
    /// Deletes the invites whose hash starts with `hashPrefix`; returns how many.
    func deleteInvites(hashPrefix: String) async throws -> Int
    /// Whether the invite whose code hashes to `codeHash` has a use left and has not expired
    /// (a read: nothing is spent).
    func inviteUsable(codeHash: String, now: Double) async throws -> Bool

    // MARK: Account administration

    /// Every account, oldest first.
    func accounts() async throws -> [Account]

    // MARK: Access: roles, suspension, hidden rows, fair share, audit (Docs/Access.md)

    /// Whether any of this account's rows is hidden (its lists then differ from the public one).
    func hasHiddenLocations(owner: String) async throws -> Bool
    /// The audit log, oldest first; only entries at or after `since` (an ISO date) when given.
    func auditEntries(since: String?) async throws -> [AuditEntry]
}

extension ServerStorage {
    package func locationList(_ query: ListQuery) async throws -> [UInt8] {
        let (rows, count) = try await locations(query)
        var json = LocationJSON(capacity: rows.count * 280 + 32)
        json.writeList(rows, count: count, keys: query.keys)
        return json.bytes
    }
}
