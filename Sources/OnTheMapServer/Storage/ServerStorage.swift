/// Everything the server keeps. `SQLiteStorage` is the default; a PostgreSQL implementation
/// can stand beside it. Implementations hold no per-process state that matters across
/// instances: sessions live in the database.
protocol ServerStorage: Sendable {
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

    /// The rows matching `query`, in its order and page, and the total match count when asked.
    func locations(_ query: ListQuery) async throws -> (rows: [StoredLocation], count: Int?)
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
    /// Adds `count` synthetic rows in one statement (benchmarks and the index test).
    func fillSynthetic(count: Int) async throws
    /// Calls `onChange` (from any thread) after locations were written by another process, as far
    /// as the database can tell; until `close()`. Storages that cannot tell never call it.
    func observeLocationChanges(_ onChange: @escaping @Sendable () -> Void)

    // MARK: Accounts and sessions

    /// - Throws: `StorageError.duplicateEmail` when the email is taken (case-insensitively).
    func insert(_ account: Account) async throws
    func account(email: String) async throws -> Account?
    func account(key: String) async throws -> Account?
    func insert(_ session: StoredSession) async throws
    /// The session with this id if it has not expired at `now`.
    func session(id: String, now: Double) async throws -> StoredSession?
    /// The session with this XSRF token if it has not expired at `now`.
    func session(xsrfToken: String, now: Double) async throws -> StoredSession?
    func deleteSession(id: String) async throws

    // MARK: Failed-login throttle (shared by every instance on the database)

    /// The latest time (seconds since 1970) until which any of `subjects` is blocked, if later than `now`.
    func loginBlockedUntil(subjects: [String], now: Double) async throws -> Double?
    /// Counts one failure against each subject, in one transaction. A subject's count restarts
    /// when its window (`window` seconds from its first failure) or its block has passed; when the
    /// count reaches the subject's `limit` it is blocked until `now + block`. Rows whose window
    /// and block have both passed may be deleted.
    func recordLoginFailure(subjects: [ThrottleSubject], now: Double, window: Double, block: Double) async throws
    /// Forgets a subject's failures (after a good login).
    func clearLoginFailures(subject: String) async throws

    // MARK: Account administration

    /// Every account, oldest first.
    func accounts() async throws -> [Account]
    /// Sets a new password hash and ends the account's sessions; `false` when there is no such account.
    func updatePassword(key: String, passwordHash: String) async throws -> Bool
    /// Deletes the account and its sessions (its locations stay); `false` when there is no such account.
    func deleteAccount(key: String) async throws -> Bool
}
