import Foundation
import Logging
import NIOConcurrencyHelpers
import ServerStorage
import PostgresNIO

/// Storage on PostgreSQL, for a class that outgrows one machine: several stateless server
/// processes share one database (sessions and login throttles live in it, too).
///
/// Text columns use the "C" collation so that sorting matches SQLite's byte order (and ISO
/// timestamps sort as time). Durability is PostgreSQL's: a commit is answered after its WAL
/// record is flushed (`synchronous_commit=on`, the default).
final class PostgresStorage: WritableStorage {
    let client: PostgresClient
    private let runTask: Task<Void, Never>
    let changeListener = NIOLockedValueBox<Task<Void, Never>?>(nil)
    let logger: Logger
    /// The time a list query may take: `SET LOCAL statement_timeout` in its transaction.
    let queryTimeout: Duration

    /// Connects to `url` (`postgres://user:password@host:port/database`; TLS off, for loopback
    /// and private networks).
    init(url: URL, queryTimeout: Duration = DatabaseLocation.defaultQueryTimeout, logger: Logger) throws {
        guard let host = url.host, !url.path.isEmpty else {
            throw PostgresStorageError.badURL("expected postgres://user[:password]@host[:port]/database")
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: url.user ?? "postgres", password: url.password,
            database: String(url.path.dropFirst()), tls: .disable)
        configuration.options.maximumConnections = Self.maximumConnections
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.queryTimeout = queryTimeout
        runTask = Task { await client.run() }
    }

    func close() async {
        let listener = changeListener.withLockedValue { $0 }
        listener?.cancel()
        _ = await listener?.value
        runTask.cancel()
        _ = await runTask.value
    }

    static let maximumConnections = 16
    var backendName: String { "postgres" }
    var connectionLimit: Int { Self.maximumConnections }

    func isReachable() async throws {
        try await client.query("SELECT 1 FROM student_location LIMIT 1", logger: logger)
    }

    func migrate() async throws {
        try await client.withConnection { connection in
            // One migrator at a time when several instances start together.
            try await connection.query("SELECT pg_advisory_lock(7345001)", logger: self.logger)
            do {
                for statement in PostgresSchema.version1 + PostgresSchema.operations + [ProviderIdentity.table] + PostgresSchema.access
                    + ChangeLogSQL.postgres {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: self.logger)
                }
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(7345001)", logger: self.logger)
                throw error
            }
            try await connection.query("SELECT pg_advisory_unlock(7345001)", logger: self.logger)
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
        let milliseconds = max(1, queryTimeout.components.seconds * 1000 + queryTimeout.components.attoseconds / 1_000_000_000_000_000)
        let logger = self.logger
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query(PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(milliseconds)"), logger: logger)
                var rows: [StoredLocation] = []
                if query.limit > 0 {
                    var bindings = try Self.bindings(binds)
                    bindings.append(query.limit)
                    bindings.append(query.skip)
                    for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger) {
                        rows.append(try Self.location(from: row))
                    }
                }
                var count: Int?
                if let countSQL {
                    let countQuery = PostgresQuery(unsafeSQL: countSQL, binds: try Self.bindings(binds))
                    for try await (value) in try await connection.query(countQuery, logger: logger).decode(Int.self) {
                        count = value
                    }
                }
                return (rows, count)
            }
        } catch let error as PostgresTransactionError {
            throw Self.listFailure(error.closureError ?? error.beginError ?? error)
        } catch {
            throw Self.listFailure(error)
        }
    }

    /// A list query's database error as a `QueryFailure`: a bad regex, the budget spent
    /// (`query_canceled`), else unchanged.
    private static func listFailure(_ error: any Error) -> any Error {
        guard let error = error as? PSQLError else { return error }
        switch error.serverInfo?[.sqlState] {
        case PostgresError.Code.invalidRegularExpression.raw: return QueryFailure.invalidRegex
        case PostgresError.Code.queryCanceled.raw: return QueryFailure.tooExpensive
        default: return error
        }
    }

    func location(objectId: String) async throws -> StoredLocation? {
        let rows = try await client.query(
            PostgresQuery(unsafeSQL: "SELECT \(AccessSQL.readColumns) FROM student_location WHERE object_id = $1", binds: try Self.bindings([.text(objectId)])),
            logger: logger)
        for try await row in rows { return try Self.location(from: row) }
        return nil
    }

    func locationCount() async throws -> Int {
        for try await (count) in try await client.query("SELECT COUNT(*) FROM student_location", logger: logger).decode(Int.self) {
            return count
        }
        return 0
    }

    func queryPlan(_ query: ListQuery) async throws -> [String] {
        let (condition, binds) = compile(query)
        var bindings = try Self.bindings(binds)
        bindings.append(query.limit)
        bindings.append(query.skip)
        let sql = "EXPLAIN SELECT \(Self.columns) FROM student_location WHERE \(condition) \(SQLCompiler.orderBy(query.order)) LIMIT $\(binds.count + 1) OFFSET $\(binds.count + 2)"
        var plan: [String] = []
        for try await (line) in try await client.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).decode(String.self) {
            plan.append(line)
        }
        return plan
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
        let logger = self.logger
        try await client.withTransaction(logger: logger) { connection in
            var end: Int64 = 0
            for try await (value) in try await connection.query(PostgresQuery(unsafeSQL: ChangeLogSQL.end), logger: logger).decode(Int64.self) {
                end = value
            }
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            var binds = PostgresBindings()
            binds.append(end)
            let refresh = ChangeLogSQL.refreshAfter({ "$\($0)" }, now: ChangeLogSQL.postgresNowExpression)
            try await connection.query(PostgresQuery(unsafeSQL: refresh[0], binds: binds), logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: refresh[1]), logger: logger)
        }
        try await client.query("ANALYZE student_location", logger: logger)
    }

    // MARK: Helpers

    static func bindings(_ values: [SQLValue]) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count + 2)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let integer): bindings.append(Int(integer))
            case .real(let real): bindings.append(real)
            case .text(let text): bindings.append(text)
            }
        }
        return bindings
    }

    static func location(from row: PostgresRow) throws -> StoredLocation {
        let (objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, longitude, createdAt, updatedAt, hiddenAt,
            hiddenReason, hiddenBy) =
            try row.decode(
                (String, String?, String?, String?, String?, String?, Double?, Double?, String, String, String?, String?, String?)
                    .self)
        return StoredLocation(
            objectId: objectId, uniqueKey: uniqueKey, firstName: firstName, lastName: lastName, mapString: mapString,
            mediaURL: mediaURL, latitude: latitude, longitude: longitude, createdAt: createdAt, updatedAt: updatedAt,
            hiddenAt: hiddenAt, hiddenReason: hiddenReason, hiddenBy: hiddenBy)
    }
}
