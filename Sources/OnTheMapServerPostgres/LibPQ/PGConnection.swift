import CLibPQ
import Foundation
import ServerStorage

/// Where and as whom to connect: the parts of a `postgres://user[:password]@host[:port]/database`
/// URL. TLS off, for loopback and private networks.
struct PGParameters: Sendable {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String

    init(url: URL) throws {
        guard let host = url.host, !host.isEmpty, url.path.count > 1 else {
            throw PostgresStorageError.badURL("expected postgres://user[:password]@host[:port]/database")
        }
        self.host = host
        port = url.port ?? 5432
        user = url.user ?? "postgres"
        password = url.password
        database = String(url.path.dropFirst())
    }

    /// libpq's keywords and values (`PQconnectdbParams`): no connection string to quote.
    var keywordsAndValues: [(String, String)] {
        var pairs = [
            ("host", host), ("port", String(port)), ("user", user), ("dbname", database), ("sslmode", "disable"),
            ("connect_timeout", "10"), ("client_encoding", "UTF8"), ("application_name", "onthemap-server"),
            // Doubles in text form exactly (the default from PostgreSQL 12 on; older servers need it said).
            ("options", "-c extra_float_digits=3"),
        ]
        if let password { pairs.append(("password", password)) }
        return pairs
    }
}

/// A failure PostgreSQL or libpq reported. `description` names its SQLSTATE only: the server's
/// words can quote a caller's text (a bad regex), and descriptions reach logs; the words are in
/// `message` and `debugDescription`, for tests and the operator's commands.
package struct PGError: LoggableStorageError, CustomStringConvertible, CustomDebugStringConvertible {
    /// The five-character SQLSTATE (`23505`), or nil when the connection failed before an answer.
    package var sqlState: String?
    package var message: String

    static let uniqueViolation = "23505"
    static let invalidRegularExpression = "2201B"
    static let queryCanceled = "57014"
    static let characterNotInRepertoire = "22021"

    package var description: String {
        sqlState.map { "PostgreSQL error \($0)" } ?? "PostgreSQL connection failed"
    }

    package var debugDescription: String { "\(description): \(message)" }

    package var loggableDescription: String { description }

    /// The failure as `StorageUnavailable` when it is the connection's, not the statement's: no
    /// answer at all, a connection exception (class 08), or the server shutting down or starting
    /// (57P01–57P03).
    var unavailable: StorageUnavailable? {
        guard let sqlState else { return StorageUnavailable(detail: "PostgreSQL connection failed") }
        guard sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState) else { return nil }
        return StorageUnavailable(detail: description)
    }
}

/// One connection through libpq. Blocking: used by one caller at a time (the pool's), each call on
/// `queue`, a thread of its own off Swift's cooperative pool.
final class PGConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Where this connection's blocking calls run, one after the other.
    let queue = DispatchQueue(label: "onthemap.postgres.connection")

    /// Connects (blocking, at most `connect_timeout`).
    init(_ parameters: PGParameters) throws {
        let pairs = parameters.keywordsAndValues
        let keywords = pairs.map { strdup($0.0) } + [nil]
        let values = pairs.map { strdup($0.1) } + [nil]
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let connection = keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keywordPointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                PQconnectdbParams(keywordPointers.baseAddress, valuePointers.baseAddress, 0)
            }
        }
        guard let connection else { throw PGError(sqlState: nil, message: "out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(connection)
            throw PGError(sqlState: nil, message: message)
        }
        // The server's notices ("relation already exists, skipping") go nowhere: libpq's default
        // prints them on stderr, over the terminal of whoever runs the command.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit { PQfinish(handle) }

    /// Runs one statement (blocking) and copies its rows out.
    func execute(_ query: PGQuery) throws -> PGRows {
        // libpq takes values as C strings, which a NUL would cut short: PostgreSQL's text holds
        // no NUL, and refuses one with 22021, so that is the answer here too — never a shorter value.
        guard !query.binds.contains(where: \.holdsNUL) else {
            throw PGError(sqlState: PGError.characterNotInRepertoire, message: "invalid byte sequence for encoding \"UTF8\": 0x00")
        }
        let types = query.binds.map(\.typeOID)
        let texts = query.binds.map { $0.textForm.map { strdup($0) } ?? nil }
        defer { texts.forEach { free($0) } }
        let result = types.withUnsafeBufferPointer { typePointer in
            texts.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointer in
                PQexecParams(
                    handle, query.sql, Int32(query.binds.count), typePointer.baseAddress, valuePointer.baseAddress, nil, nil, 0)
            }
        }
        guard let result else { throw connectionError() }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return Self.rows(of: result)
        case PGRES_FATAL_ERROR, PGRES_NONFATAL_ERROR:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            if state == nil, PQstatus(handle) != CONNECTION_OK { throw connectionError() }
            throw PGError(sqlState: state, message: message ?? "an error without words")
        default:
            throw PGError(sqlState: nil, message: "an unexpected answer (\(String(cString: PQresStatus(PQresultStatus(result)))))")
        }
    }

    private func connectionError() -> PGError {
        PGError(
            sqlState: nil, message: String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func rows(of result: OpaquePointer) -> PGRows {
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        var rows: [PGRow] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values: [String?] = []
            values.reserveCapacity(columnCount)
            for column in 0..<Int32(columnCount) {
                if PQgetisnull(result, row, column) != 0 {
                    values.append(nil)
                } else {
                    let length = Int(PQgetlength(result, row, column))
                    let bytes = UnsafeRawPointer(PQgetvalue(result, row, column)!).assumingMemoryBound(to: UInt8.self)
                    values.append(String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self))
                }
            }
            rows.append(PGRow(values: values))
        }
        let affected = Int(String(cString: PQcmdTuples(result))) ?? rowCount
        return PGRows(rows: rows, affected: affected)
    }

    /// Ready for the next caller: connected and outside any transaction.
    var isIdle: Bool { PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE }

    /// Whether an idle connection is still good. Never blocks. A server that stops or restarts
    /// sends its idle connections a last error ("terminating connection due to administrator
    /// command") and closes them, which is only seen by reading; a pool connection (which listens
    /// to nothing) has no other reason to receive anything while idle, so one that did is not
    /// trusted with a statement.
    func isAlive() -> Bool {
        guard PQstatus(handle) == CONNECTION_OK else { return false }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 0
    }

    // MARK: LISTEN

    /// The socket to wait on for notifications.
    var socket: Int32 { PQsocket(handle) }

    /// Reads what arrived and counts the notifications in it; nil when the connection is gone.
    func takeNotifications() -> Int? {
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else { return nil }
        var count = 0
        while let notification = PQnotifies(handle) {
            PQfreemem(notification)
            count += 1
        }
        return count
    }
}
