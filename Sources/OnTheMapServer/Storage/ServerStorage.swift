/// Everything the server keeps. `SQLiteStorage` is the default; a PostgreSQL implementation
/// can stand beside it. Implementations hold no per-process state that matters across
/// instances: sessions live in the database.
protocol ServerStorage: Sendable {
    /// Creates or upgrades the schema.
    func migrate() async throws
    /// Releases connections; the storage is not used afterwards.
    func close() async

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
}
