import Foundation
import Logging
import NIOConcurrencyHelpers
@_spi(WritePath) import ServerStorage

/// Storage on PostgreSQL, for a class that outgrows one machine: several stateless server
/// processes share one database (sessions and login throttles live in it, too).
///
/// Through libpq, PostgreSQL's own client (`PGPool`, `PGConnection`): no TLS or crypto stack of
/// our own to build. Text columns use the "C" collation so that sorting matches SQLite's byte
/// order (and ISO timestamps sort as time). Durability is PostgreSQL's: a commit is answered
/// after its WAL record is flushed (`synchronous_commit=on`, the default).
final class PostgresStorage: WritableStorage {
    let pool: PGPool
    let changeListener = NIOLockedValueBox<PGListener?>(nil)
    let logger: Logger
    /// The time a list query may take: `SET LOCAL statement_timeout` in its transaction.
    let queryTimeout: Duration

    /// Ready to connect to `url` (`postgres://user:password@host:port/database`; TLS off, for
    /// loopback and private networks); the first statement connects.
    init(url: URL, queryTimeout: Duration = DatabaseLocation.defaultQueryTimeout, logger: Logger) throws {
        pool = PGPool(parameters: try PGParameters(url: url), maximum: Self.maximumConnections)
        self.logger = logger
        self.queryTimeout = queryTimeout
    }

    func close() async {
        let listener = changeListener.withLockedValue { listener in
            defer { listener = nil }
            return listener
        }
        if let listener { _ = try? await PGSession.onThreadOfItsOwn { listener.stop() } }
        pool.close()
    }

    static let maximumConnections = 16
    var backendName: String { "postgres" }
    var connectionLimit: Int { Self.maximumConnections }

    func isReachable() async throws {
        try await pool.execute("SELECT 1 FROM student_location LIMIT 1")
    }

    func migrate() async throws {
        try await pool.withConnection { connection in
            // One migrator at a time when several instances start together.
            try await connection.execute("SELECT pg_advisory_lock(7345001)")
            do {
                for statement in PostgresSchema.version1 + PostgresSchema.operations + [ProviderIdentity.table] + PostgresSchema.access
                    + ChangeLogSQL.postgres {
                    try await connection.execute(PGQuery(unsafeSQL: statement))
                }
            } catch {
                _ = try? await connection.execute("SELECT pg_advisory_unlock(7345001)")
                throw error
            }
            try await connection.execute("SELECT pg_advisory_unlock(7345001)")
        }
    }

    // MARK: Locations

    static let columns = LocationField.allCases.map(\.column).joined(separator: ", ")

    private func compile(_ query: ListQuery) -> (condition: String, bindings: [SQLValue]) {
        var compiler = SQLCompiler(dialect: .postgres)
        let condition = compiler.whereCondition(query)
        return (condition, compiler.binds)
    }

    /// The page and count of `query`, in one transaction whose `statement_timeout` is the query
    /// budget (or 400 "query too expensive").
    func locations(_ query: ListQuery) async throws -> (rows: [StoredLocation], count: Int?) {
        let (condition, binds) = compile(query)
        let limitIndex = binds.count + 1
        let sql = "SELECT \(AccessSQL.readColumns) FROM student_location WHERE \(condition) \(SQLCompiler.orderBy(query.order)) LIMIT $\(limitIndex) OFFSET $\(limitIndex + 1)"
        let countSQL = query.includeCount ? "SELECT COUNT(*) FROM student_location WHERE \(condition)" : nil
        let milliseconds = max(1, queryTimeout.wholeMilliseconds)
        do {
            return try await pool.withTransaction { connection in
                try await connection.execute(PGQuery(unsafeSQL: "SET LOCAL statement_timeout = \(milliseconds)"))
                var rows: [StoredLocation] = []
                if query.limit > 0 {
                    let page = PGQuery(
                        unsafeSQL: sql, binds: Self.values(binds) + [.integer(Int64(query.limit)), .integer(Int64(query.skip))])
                    rows = try await connection.execute(page).rows.map(Self.location(from:))
                }
                var count: Int?
                if let countSQL {
                    count = try await connection.execute(PGQuery(unsafeSQL: countSQL, binds: Self.values(binds))).first?.int(0)
                }
                return (rows, count)
            }
        } catch let error as PGError {
            // A list query's database error as a `QueryFailure`: a bad regex, the budget spent.
            switch error.sqlState {
            case PGError.invalidRegularExpression: throw QueryFailure.invalidRegex
            case PGError.queryCanceled: throw QueryFailure.tooExpensive
            default: throw error
            }
        }
    }

    func location(objectId: String) async throws -> StoredLocation? {
        try await pool.execute(
            PGQuery(unsafeSQL: "SELECT \(AccessSQL.readColumns) FROM student_location WHERE object_id = $1", binds: [.text(objectId)])
        ).first.map(Self.location(from:))
    }

    func locationCount() async throws -> Int {
        try await pool.execute("SELECT COUNT(*) FROM student_location").first?.int(0) ?? 0
    }

    func queryPlan(_ query: ListQuery) async throws -> [String] {
        let (condition, binds) = compile(query)
        let sql = "EXPLAIN SELECT \(Self.columns) FROM student_location WHERE \(condition) \(SQLCompiler.orderBy(query.order)) LIMIT $\(binds.count + 1) OFFSET $\(binds.count + 2)"
        let plan = PGQuery(unsafeSQL: sql, binds: Self.values(binds) + [.integer(Int64(query.limit)), .integer(Int64(query.skip))])
        return try await pool.execute(plan).rows.map { try $0.text(0) }
    }

    func fillSynthetic(count: Int) async throws {
        // The column list is SQL, not a value: spelled into the text (the counts are integers).
        let sql = """
            INSERT INTO student_location (\(Self.columns))
            SELECT 's' || lpad(i::text, 9, '0'), 'k' || (i % 5000), 'First' || (i % 97), 'Last' || (i % 89), 'Place ' || (i % 1000),
                   'https://example.com/' || i, (i % 180) - 90 + 0.5, (i % 360) - 180 + 0.25,
                   to_char(to_timestamp(1400000000 + i * 7) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"'),
                   to_char(to_timestamp(1400000000 + ((i::bigint * 7919) % \(max(count, 1))) * 11) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')
            FROM generate_series(1, \(count)) AS i
            """
        try await pool.withTransaction { connection in
            let end = try await connection.execute(PGQuery(unsafeSQL: ChangeLogSQL.end)).first?.int64(0) ?? 0
            try await connection.execute(PGQuery(unsafeSQL: sql))
            let refresh = ChangeLogSQL.refreshAfter({ "$\($0)" }, now: ChangeLogSQL.postgresNowExpression)
            try await connection.execute(PGQuery(unsafeSQL: refresh[0], binds: [.integer(end)]))
            try await connection.execute(PGQuery(unsafeSQL: refresh[1]))
        }
        try await pool.execute("ANALYZE student_location")
    }

    /// A PostgreSQL database is restored with `pg_restore` (Docs/Operations.md, "Backups"), which
    /// the operator's `restore` names before it opens anything; a call that gets here writes nothing.
    func restore(from path: String, replacingNonEmpty: Bool, audit: @Sendable (DatabaseCounts) -> AuditEntry) async throws
        -> RestoreOutcome
    {
        throw RestoreUnsupported("A PostgreSQL database is restored with pg_restore, not from a SQLite file.")
    }

    // MARK: Helpers

    static func values(_ values: [SQLValue]) -> [PGValue] {
        values.map { value in
            switch value {
            case .null: .null
            case .integer(let integer): .integer(Int64(integer))
            case .real(let real): .real(real)
            case .text(let text): .text(text)
            }
        }
    }

    static func location(from row: PGRow) throws -> StoredLocation {
        StoredLocation(
            objectId: try row.text(0), uniqueKey: try row.optionalText(1), firstName: try row.optionalText(2),
            lastName: try row.optionalText(3), mapString: try row.optionalText(4), mediaURL: try row.optionalText(5),
            latitude: try row.optionalDouble(6), longitude: try row.optionalDouble(7), createdAt: try row.text(8),
            updatedAt: try row.text(9), hiddenAt: try row.optionalText(10), hiddenReason: try row.optionalText(11),
            hiddenBy: try row.optionalText(12))
    }
}
