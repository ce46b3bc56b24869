/// The writes of a StudentLocation row, an account and what their rules keep (the fair-share
/// counter, the audit log, whose entry a moderation act carries and writes in its own
/// transaction): the storages implement them, and `ClassWrites` — the one write path —
/// is the only code that may call them. The storages that implement it are other targets, and
/// Swift has no access level narrower than `package` across targets, so it is SPI
/// (`@_spi(WritePath)`), and so is every way to a storage that writes: `SQLiteStorage`,
/// `DatabaseLocation.open`, a `PostgresOpener`'s `open` and initializer. A file that imports
/// ServerStorage plainly can neither name nor call them (WritePathSealTests); one that imports it with
/// `@_spi(WritePath)` can, and `scripts/check-architecture.py` fails on such an import outside the
/// storages (`ServerStorage`, `OnTheMapServerPostgres`), `ClassRules` and the wiring
/// (`ServerApplication`, `MeasuredStorage`). Everything else gets the storage as an
/// `any ServerStorage`, which has no write to call: reads, sessions, throttle, invites.
@_spi(WritePath) public protocol WritableStorage: ServerStorage {
    // MARK: Locations

    func insert(_ location: StoredLocation) async throws
    /// Inserts many rows in one transaction (seeding, import).
    func insert(_ locations: [StoredLocation]) async throws
    /// Applies `changes` and sets `updatedAt`; when `owner` is given the row's uniqueKey must equal it.
    func update(objectId: String, changes: LocationChanges, updatedAt: String, owner: String?) async throws -> WriteOutcome
    /// Deletes the row (when `owner` is given its uniqueKey must equal it); with `audit`, the
    /// audit entry is written in the same transaction when the row is deleted.
    func delete(objectId: String, owner: String?, audit: AuditEntry?) async throws -> WriteOutcome
    /// Adds `count` synthetic rows in one statement (benchmarks and the index test), announced to no
    /// subscriber one by one: their change-log entries are replaced, in the same transaction, by
    /// one `refresh` entry, which only tells the list caches that the table changed.
    func fillSynthetic(count: Int) async throws
    /// Gives every account that has none its canonical e-mail key (`EmailKey`), oldest first,
    /// and adds the column and its unique index if missing: a step of its own after `migrate`.
    /// An account whose key an older one holds keeps none and is returned, never merged.
    func migrateEmailKeys() async throws -> [EmailKeyCollision]
    /// - Throws: `StorageError.duplicateEmail` when the email is taken (case-insensitively).
    func insert(_ account: Account) async throws
    /// Inserts `account` and links `identity` to it, in one transaction.
    /// - Throws: `StorageError.duplicateIdentity` when the identity is linked already.
    func insert(_ account: Account, linking identity: ProviderIdentity) async throws
    /// Inserts `account` and takes one use of the invite `codeHash` in one transaction: both or
    /// neither, so only a sign-up that succeeds spends an invite, and two at once cannot both
    /// take its last use.
    /// - Throws: `StorageError.inviteNotUsable` (used up, expired, unknown) or `.duplicateEmail`;
    ///   either way nothing is written.
    func insert(_ account: Account, spendingInvite codeHash: String, now: Double) async throws
    /// Sets a new password hash and ends the account's sessions; `false` when there is no such account.
    func updatePassword(key: String, passwordHash: String) async throws -> Bool
    /// Deletes the account, its sessions and its locations, and writes `audit`, in one
    /// transaction; `nil` (and nothing written) when there is no such account.
    func deleteAccount(key: String, audit: AuditEntry) async throws -> AccountDeletion?
    /// Inserts `location` unless its owner (`uniqueKey`) already has `maxRowsPerOwner` rows,
    /// counted in the same transaction (and, on PostgreSQL, under a lock per owner), so that
    /// concurrent POSTs of one account on any instance cannot pass the limit. `false` when refused.
    func insert(_ location: StoredLocation, maxRowsPerOwner: Int) async throws -> Bool
    /// Hides the row with `mark`, or shows it again when `mark` is `nil`, and writes `audit`, in one
    /// transaction; `false` (and nothing written) when there is no such row.
    func setHidden(objectId: String, mark: HiddenMark?, audit: AuditEntry) async throws -> Bool
    /// Sets an account's role and writes `audit`, in one transaction; `false` (and nothing
    /// written) when there is no such account.
    func setRole(key: String, role: AccountRole, audit: AuditEntry) async throws -> Bool
    /// Suspends (`at` given: ends the account's sessions and hides its visible rows with
    /// `hidden_by = 'suspension'`) or unsuspends (`nil`: shows the rows the suspension hid), in
    /// one transaction with `audit`; `false` (and nothing written) when there is no such account.
    func setSuspended(key: String, at: String?, audit: AuditEntry) async throws -> Bool
    /// Counts one write of `accountKey` in its current window of `window` seconds (one atomic
    /// upsert, shared by every instance); returns the writes counted in the window, this one
    /// included, and when the window started (seconds since 1970).
    func countWrite(accountKey: String, now: Double, window: Double) async throws -> (writes: Int, windowStart: Double)

    // MARK: The whole database

    /// Replaces the whole database with the backup file at `path` (the operator's `restore`),
    /// unless it holds a location or an account and `replacingNonEmpty` is false (then nothing is
    /// written and the counts are returned). The backup is brought to this version's schema and
    /// given `audit(counts)` — what it holds — and one `reload` entry of the change log, numbered
    /// above both logs, before its pages replace the database's in one write transaction: the
    /// restored data, its audit entry and the signal to every instance become live together.
    /// SQLite only: PostgreSQL throws `RestoreUnsupported` (pg_restore is its restore).
    func restore(from path: String, replacingNonEmpty: Bool, audit: @Sendable (DatabaseCounts) -> AuditEntry) async throws
        -> RestoreOutcome
}

/// What a database holds, counted (public: the operator's `backup` and `restore` print it).
public struct DatabaseCounts: Sendable, Hashable, CustomStringConvertible {
    public var locations: Int
    public var accounts: Int
    public var sessions: Int

    public init(locations: Int, accounts: Int, sessions: Int) {
        self.locations = locations
        self.accounts = accounts
        self.sessions = sessions
    }

    /// "42 locations, 40 accounts and 37 sessions".
    public var description: String {
        "\(locations) location\(locations == 1 ? "" : "s"), \(accounts) account\(accounts == 1 ? "" : "s") "
            + "and \(sessions) session\(sessions == 1 ? "" : "s")"
    }
}

/// How `WritableStorage.restore` went.
public enum RestoreOutcome: Sendable, Hashable {
    /// The database now holds the backup: these.
    case restored(DatabaseCounts)
    /// Nothing was written: the database holds these, and replacing it was not asked for.
    case notEmpty(DatabaseCounts)
}

/// A storage that is not restored from a file (PostgreSQL: `pg_restore`).
package struct RestoreUnsupported: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
