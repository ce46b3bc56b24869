import Foundation
import GRDB

/// The default storage: one SQLite file in WAL mode through a GRDB `DatabasePool`
/// (many concurrent readers, one writer).
///
/// Durability: `synchronous=FULL`, so a write that was answered survives a crash of the process
/// and of the machine (WAL is synced at every commit).
///
/// SPI, like `WritableStorage`: a target that imports ServerStorage plainly cannot name it, so
/// cannot open one or cast an `any ServerStorage` to it to write. Its members that implement the
/// two protocols are `public` because the class is; they are SPI with it.
@_spi(WritePath) public final class SQLiteStorage: WritableStorage {
    let pool: DatabasePool
    /// The time a list query may take (`SQLiteQueryBudget`).
    let queryTimeout: Duration
    private let budgets = SQLiteQueryBudgets()

    /// Opens (creating folders and file as needed) the database at `path`. A folder it creates
    /// is `0700` and a new database file `0600`; SQLite gives the `-wal` and `-shm` files the
    /// database file's mode. Existing folders and files keep theirs (the operator's choice).
    /// At most `maximumReaders` reading connections are opened, as reads need them (nil: GRDB's
    /// default of 5).
    package init(path: String, queryTimeout: Duration = DatabaseLocation.defaultQueryTimeout, maximumReaders: Int? = nil) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        self.queryTimeout = queryTimeout
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        if let maximumReaders { configuration.maximumReaderCount = max(1, maximumReaders) }
        configuration.prepareDatabase { [budgets] db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            budgets.install(on: db)
        }
        pool = try DatabasePool(path: path, configuration: configuration)
    }

    public func close() async {
        try? pool.close()
    }

    public var backendName: String { "sqlite" }
    /// The readers and the one writer.
    public var connectionLimit: Int { pool.configuration.maximumReaderCount + 1 }

    public func isReachable() async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1 FROM student_location LIMIT 1") }
    }

    public func migrate() async throws {
        try Self.migrator.migrate(pool)
    }

    /// This version's schema, step by step: the live database's, and a backup's before it is
    /// restored (`restore(from:replacingNonEmpty:audit:)`).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE student_location (
                        object_id TEXT PRIMARY KEY NOT NULL,
                        unique_key TEXT,
                        first_name TEXT,
                        last_name TEXT,
                        map_string TEXT,
                        media_url TEXT,
                        latitude REAL,
                        longitude REAL,
                        created_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL
                    );
                    CREATE INDEX student_location_updated ON student_location (updated_at, object_id);
                    CREATE INDEX student_location_unique_key ON student_location (unique_key, updated_at);
                    CREATE TABLE account (
                        key TEXT PRIMARY KEY NOT NULL,
                        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
                        password_hash TEXT NOT NULL,
                        first_name TEXT NOT NULL,
                        last_name TEXT NOT NULL,
                        created_at TEXT NOT NULL
                    );
                    CREATE TABLE session (
                        id TEXT PRIMARY KEY NOT NULL,
                        account_key TEXT NOT NULL REFERENCES account(key) ON DELETE CASCADE,
                        xsrf_token TEXT NOT NULL UNIQUE,
                        expires_at REAL NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2-login-failure") { db in
            try db.execute(sql: Self.loginFailureSchema)
        }
        // Sessions at rest only as hashes (SessionSeal). Sessions opened before cannot be
        // sealed without their XSRF token, so they end: their users log in again.
        migrator.registerMigration("v3-hashed-sessions") { db in
            try db.execute(sql: "DELETE FROM session; ALTER TABLE session ADD COLUMN sealed_id TEXT NOT NULL DEFAULT ''")
            try db.execute(sql: ThrottleSQL.trustTable)
            try db.execute(sql: ThrottleSQL.inviteTable)
        }
        migrator.registerMigration("v4-provider-identity") { db in
            try db.execute(sql: ProviderIdentity.table)
        }
        migrator.registerMigration("v5-access") { db in
            for statement in Self.accessMigration { try db.execute(sql: statement) }
        }
        migrator.registerMigration("v6-change-log") { db in
            for statement in ChangeLogSQL.sqlite { try db.execute(sql: statement) }
        }
        return migrator
    }

    // MARK: Locations

    static let columns = LocationField.allCases.map(\.column).joined(separator: ", ")

    /// The page and count of `query`, within `queryTimeout` (or 400 "query too expensive").
    public func locations(_ query: ListQuery) async throws -> (rows: [StoredLocation], count: Int?) {
        let (sql, countSQL, binds) = Self.listSQL(query)
        return try await pool.read { [budgets, queryTimeout] db in
            try budgets.budget(for: db).run(timeout: queryTimeout) {
                try Self.read(db, sql: sql, countSQL: countSQL, binds: binds, limit: query.limit, skip: query.skip)
            }
        }
    }

    /// The same page and count as the wire's JSON, written from the statement's columns in place:
    /// no `String` and no `StoredLocation` is made for a row (`SQLiteLocationColumns`).
    public func locationList(_ query: ListQuery) async throws -> [UInt8] {
        let (sql, countSQL, binds) = Self.listSQL(query)
        return try await pool.read { [budgets, queryTimeout] db in
            try budgets.budget(for: db).run(timeout: queryTimeout) {
                var json = LocationJSON(capacity: min(query.limit, 1000) * 280 + 32)
                json.beginList()
                let count = try Self.eachRow(
                    db, sql: sql, countSQL: countSQL, binds: binds, limit: query.limit, skip: query.skip
                ) { statement, _ in
                    json.writeListRow(SQLiteLocationColumns(statement: statement), keys: query.keys)
                }
                json.endList(count: count)
                return json.bytes
            }
        }
    }

    /// The list's statement, its count statement (when asked) and their bound values.
    private static func listSQL(_ query: ListQuery) -> (sql: String, countSQL: String?, binds: [DatabaseValue]) {
        var compiler = SQLCompiler(dialect: .sqlite)
        let condition = compiler.whereCondition(query)
        let binds = compiler.binds.map(\.databaseValue)
        let sql = "SELECT \(AccessSQL.readColumns) FROM student_location WHERE \(condition) \(SQLCompiler.orderBy(query.order)) LIMIT ? OFFSET ?"
        let countSQL = query.includeCount ? "SELECT COUNT(*) FROM student_location WHERE \(condition)" : nil
        return (sql, countSQL, binds)
    }

    private static func read(_ db: Database, sql: String, countSQL: String?, binds: [DatabaseValue], limit: Int, skip: Int)
        throws -> (rows: [StoredLocation], count: Int?)
    {
        var rows: [StoredLocation] = []
        rows.reserveCapacity(min(limit, 1000))
        let count = try eachRow(db, sql: sql, countSQL: countSQL, binds: binds, limit: limit, skip: skip) { _, row in
            rows.append(location(from: row))
        }
        return (rows, count)
    }

    /// Runs the page's statement (cached: no parse per request) with `limit` and `skip` bound
    /// after `binds`, calling `body` with each row in place (the statement and GRDB's row on it,
    /// neither copied), then the count statement when there is one; the count.
    private static func eachRow(
        _ db: Database, sql: String, countSQL: String?, binds: [DatabaseValue], limit: Int, skip: Int,
        _ body: (_ statement: OpaquePointer, _ row: Row) throws -> Void
    ) throws -> Int? {
        if limit > 0 {
            let statement = try db.cachedStatement(sql: sql)
            let arguments = StatementArguments(binds + [limit.databaseValue, skip.databaseValue])
            let cursor = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try cursor.next() { try body(statement.sqliteStatement, row) }
        }
        return try countSQL.flatMap { try Int.fetchOne(db, sql: $0, arguments: StatementArguments(binds)) }
    }

    public func location(objectId: String) async throws -> StoredLocation? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT \(AccessSQL.readColumns) FROM student_location WHERE object_id = ?", arguments: [objectId])
                .map(Self.location(from:))
        }
    }

    public func insert(_ location: StoredLocation) async throws {
        try await insert([location])
    }

    public func insert(_ locations: [StoredLocation]) async throws {
        try await pool.write { db in try Self.insert(db, locations) }
    }

    static func insert(_ db: Database, _ locations: [StoredLocation]) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO student_location (\(AccessSQL.readColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for location in locations {
            try statement.execute(arguments: [
                location.objectId, location.uniqueKey, location.firstName, location.lastName, location.mapString,
                location.mediaURL, location.latitude, location.longitude, location.createdAt, location.updatedAt,
                location.hiddenAt, location.hiddenReason, location.hiddenBy,
            ])
        }
    }

    public func update(objectId: String, changes: LocationChanges, updatedAt: String, owner: String?) async throws -> WriteOutcome {
        try await pool.write { db in
            if let refusal = try Self.refusal(db, objectId: objectId, owner: owner) { return refusal }
            let changed = changes.assignments
            let assignments = ["updated_at = ?"] + changed.map { "\($0.0.column) = ?" }
            let values = [updatedAt.databaseValue] + changed.map(\.1.databaseValue) + [objectId.databaseValue]
            try db.execute(
                sql: "UPDATE student_location SET \(assignments.joined(separator: ", ")) WHERE object_id = ?",
                arguments: StatementArguments(values))
            return .done
        }
    }

    public func delete(objectId: String, owner: String?, audit: AuditEntry?) async throws -> WriteOutcome {
        try await pool.write { db in
            if let refusal = try Self.refusal(db, objectId: objectId, owner: owner) { return refusal }
            try db.execute(sql: "DELETE FROM student_location WHERE object_id = ?", arguments: [objectId])
            if let audit { try Self.insert(audit, db) }
            return .done
        }
    }

    /// Why the row may not be written (`.notFound`, `.notOwner`), or `nil`; inside the write transaction.
    private static func refusal(_ db: Database, objectId: String, owner: String?) throws -> WriteOutcome? {
        guard let current = try String?.fetchOne(
            db, sql: "SELECT unique_key FROM student_location WHERE object_id = ?", arguments: [objectId])
        else { return .notFound }
        if let owner, current != owner { return .notOwner }
        return nil
    }

    public func locationCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM student_location") ?? 0 }
    }

    /// The query plan SQLite chooses for `query` (for the documentation and its test).
    public func queryPlan(_ query: ListQuery) async throws -> [String] {
        let (sql, _, binds) = Self.listSQL(query)
        return try await pool.read { db in
            let arguments = StatementArguments(binds + [query.limit.databaseValue, query.skip.databaseValue])
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String? ?? "" }
        }
    }

    /// Adds `count` synthetic rows in one statement (benchmarks and the index test): keys of
    /// 5,000 accounts, coordinates over the globe, `updatedAt` shuffled over ~4 months.
    public func fillSynthetic(count: Int) async throws {
        try await pool.write { db in
            let logEnd = try Int64.fetchOne(db, sql: ChangeLogSQL.end) ?? 0
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO student_location (\(Self.columns))
                    SELECT printf('s%09d', i), 'k' || (i % 5000), 'First' || (i % 97), 'Last' || (i % 89), 'Place ' || (i % 1000),
                           'https://example.com/' || i, (i % 180) - 90 + 0.5, (i % 360) - 180 + 0.25,
                           strftime('%Y-%m-%dT%H:%M:%S.000Z', 1400000000 + i * 7, 'unixepoch'),
                           strftime('%Y-%m-%dT%H:%M:%S.000Z', 1400000000 + ((i * 7919) % ?) * 11, 'unixepoch')
                    FROM n
                    """, arguments: [count, max(count, 1)])
            let refresh = ChangeLogSQL.refreshAfter({ _ in "?" }, now: ChangeLogSQL.sqliteNowExpression)
            try db.execute(sql: refresh[0], arguments: [logEnd])
            try db.execute(sql: refresh[1])
            try db.execute(sql: "ANALYZE")
        }
    }

    private static func location(from row: Row) -> StoredLocation {
        StoredLocation(
            objectId: row[0], uniqueKey: row[1], firstName: row[2], lastName: row[3], mapString: row[4], mediaURL: row[5],
            latitude: row[6], longitude: row[7], createdAt: row[8], updatedAt: row[9], hiddenAt: row[10], hiddenReason: row[11],
            hiddenBy: row[12])
    }

    // MARK: Accounts and sessions

    public func insert(_ account: Account) async throws {
        do {
            try await pool.write { db in
                try db.execute(
                    sql: "INSERT INTO account (key, email, email_key, password_hash, first_name, last_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [account.key, account.email, EmailKey.canonical(account.email), account.passwordHash, account.firstName, account.lastName, account.createdAt])
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StorageError.duplicateEmail
        }
    }

    public func account(email: String) async throws -> Account? {
        try await pool.read { db in
            // By the canonical form; an account the e-mail migration found colliding has no key
            // (`EmailKeyCollision`) and is found by exactly its own address, before the holder.
            try Row.fetchOne(
                db,
                sql: """
                    SELECT * FROM account WHERE email_key = ? OR (email_key IS NULL AND email = ? COLLATE BINARY)
                    ORDER BY email_key IS NULL DESC LIMIT 1
                    """, arguments: [EmailKey.canonical(email), email]
            ).map(Self.account(from:))
        }
    }

    public func account(key: String) async throws -> Account? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE key = ?", arguments: [key]).map(Self.account(from:))
        }
    }

    static func account(from row: Row) -> Account {
        Account(
            key: row["key"], email: row["email"], passwordHash: row["password_hash"], firstName: row["first_name"],
            lastName: row["last_name"], createdAt: row["created_at"],
            role: AccountRole(rawValue: row["role"] ?? "") ?? .student, suspendedAt: row["suspended_at"])
    }

    public func insert(_ session: StoredSession) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM session WHERE expires_at < ?", arguments: [Date().timeIntervalSince1970])
            try db.execute(
                sql: "INSERT INTO session (id, account_key, xsrf_token, sealed_id, expires_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [session.idHash, session.accountKey, session.xsrfHash, session.sealedId, session.expiresAt])
        }
    }

    public func session(idHash: String, now: Double) async throws -> StoredSession? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM session WHERE id = ? AND expires_at > ?", arguments: [idHash, now])
                .map(Self.session(from:))
        }
    }

    public func session(xsrfHash: String, now: Double) async throws -> StoredSession? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM session WHERE xsrf_token = ? AND expires_at > ?", arguments: [xsrfHash, now])
                .map(Self.session(from:))
        }
    }

    public func deleteSession(idHash: String) async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [idHash]) }
    }

    private static func session(from row: Row) -> StoredSession {
        StoredSession(
            idHash: row["id"], accountKey: row["account_key"], xsrfHash: row["xsrf_token"], sealedId: row["sealed_id"],
            expiresAt: row["expires_at"])
    }
}

extension SQLValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let value): return value.databaseValue
        case .real(let value): return value.databaseValue
        case .text(let value): return value.databaseValue
        }
    }
}
