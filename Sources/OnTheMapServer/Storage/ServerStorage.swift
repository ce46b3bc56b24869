/// Everything the server keeps. `SQLiteStorage` is the default; a PostgreSQL implementation
/// can stand beside it. Implementations hold no per-process state that matters across
/// instances: sessions live in the database.
package protocol ServerStorage: Sendable {
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
    func insert(_ location: StoredLocation) async throws
    /// Inserts many rows in one transaction (seeding, import).
    func insert(_ locations: [StoredLocation]) async throws
    /// Applies `changes` and sets `updatedAt`; when `owner` is given the row's uniqueKey must equal it.
    func update(objectId: String, changes: LocationChanges, updatedAt: String, owner: String?) async throws -> WriteOutcome
    func delete(objectId: String, owner: String?) async throws -> WriteOutcome
    func locationCount() async throws -> Int
    /// The database's plan for `query`, one line per step (documentation and tests).
    func queryPlan(_ query: ListQuery) async throws -> [String]
    /// Adds `count` synthetic rows in one statement (benchmarks and the index test), announced to no
    /// subscriber: their change-log entries are deleted in the same transaction.
    func fillSynthetic(count: Int) async throws

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

    /// - Throws: `StorageError.duplicateEmail` when the email is taken (case-insensitively).
    func insert(_ account: Account) async throws
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
    /// Inserts `account` and links `identity` to it, in one transaction.
    /// - Throws: `StorageError.duplicateIdentity` when the identity is linked already.
    func insert(_ account: Account, linking identity: ProviderIdentity) async throws

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
    /// Inserts `account` and takes one use of the invite `codeHash` in one transaction: both or
    /// neither, so only a sign-up that succeeds spends an invite, and two at once cannot both
    /// take its last use.
    /// - Throws: `StorageError.inviteNotUsable` (used up, expired, unknown) or `.duplicateEmail`;
    ///   either way nothing is written.
    func insert(_ account: Account, spendingInvite codeHash: String, now: Double) async throws

    // MARK: Account administration

    /// Every account, oldest first.
    func accounts() async throws -> [Account]
    /// Sets a new password hash and ends the account's sessions; `false` when there is no such account.
    func updatePassword(key: String, passwordHash: String) async throws -> Bool
    /// Deletes the account, its sessions and its locations, in one transaction; `nil` when there
    /// is no such account.
    func deleteAccount(key: String) async throws -> AccountDeletion?

    // MARK: Access: roles, suspension, hidden rows, fair share, audit (Docs/Access.md)

    /// Inserts `location` unless its owner (`uniqueKey`) already has `maxRowsPerOwner` rows,
    /// counted in the same transaction (and, on PostgreSQL, under a lock per owner), so that
    /// concurrent POSTs of one account on any instance cannot pass the limit. `false` when refused.
    func insert(_ location: StoredLocation, maxRowsPerOwner: Int) async throws -> Bool
    /// Hides the row with `mark`, or shows it again when `mark` is `nil`; `false` when there is no such row.
    func setHidden(objectId: String, mark: HiddenMark?) async throws -> Bool
    /// Whether any of this account's rows is hidden (its lists then differ from the public one).
    func hasHiddenLocations(owner: String) async throws -> Bool
    /// Sets an account's role; `false` when there is no such account.
    func setRole(key: String, role: AccountRole) async throws -> Bool
    /// Suspends (`at` given: ends the account's sessions and hides its visible rows with
    /// `hidden_by = 'suspension'`) or unsuspends (`nil`: shows the rows the suspension hid), in
    /// one transaction; `false` when there is no such account.
    func setSuspended(key: String, at: String?) async throws -> Bool
    /// Counts one write of `accountKey` in its current window of `window` seconds (one atomic
    /// upsert, shared by every instance); returns the writes counted in the window, this one
    /// included, and when the window started (seconds since 1970).
    func countWrite(accountKey: String, now: Double, window: Double) async throws -> (writes: Int, windowStart: Double)
    func insert(_ entry: AuditEntry) async throws
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
