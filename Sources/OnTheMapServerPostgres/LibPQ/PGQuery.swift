import Foundation

/// A value bound to a statement's `$n`, sent in PostgreSQL's text form with its type, so that
/// the server never has to guess one from the context.
enum PGValue: Sendable, Equatable {
    case null
    case text(String)
    case integer(Int64)
    case real(Double)
    case textArray([String])

    /// The type's OID (`pg_type`): text, int8, float8, text[]; 0 (the server infers it) for NULL.
    var typeOID: UInt32 {
        switch self {
        case .null: 0
        case .text: 25
        case .integer: 20
        case .real: 701
        case .textArray: 1009
        }
    }

    /// Whether its text holds a NUL, which PostgreSQL's text cannot.
    var holdsNUL: Bool {
        switch self {
        case .text(let text): text.utf8.contains(0)
        case .textArray(let elements): elements.contains { $0.utf8.contains(0) }
        case .null, .integer, .real: false
        }
    }

    /// The text form PostgreSQL's input functions read (nil: SQL NULL). A double prints its
    /// shortest exact form (`inf`, `-inf`, `nan` included, which float8's input accepts).
    var textForm: String? {
        switch self {
        case .null: nil
        case .text(let text): text
        case .integer(let integer): String(integer)
        case .real(let real): "\(real)"
        case .textArray(let elements):
            "{" + elements.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
                .joined(separator: ",") + "}"
        }
    }
}

/// What a `PGQuery` interpolation may bind.
protocol PGBindable {
    var pgValue: PGValue { get }
}

extension String: PGBindable { var pgValue: PGValue { .text(self) } }
extension Int: PGBindable { var pgValue: PGValue { .integer(Int64(self)) } }
extension Int64: PGBindable { var pgValue: PGValue { .integer(self) } }
extension Double: PGBindable { var pgValue: PGValue { .real(self) } }
extension Array: PGBindable where Element == String { var pgValue: PGValue { .textArray(self) } }

/// One statement and its values. Written as a string, every interpolated value becomes the next
/// `$n` and is bound, never spelled into the SQL: `"DELETE FROM session WHERE id = \(idHash)"`.
/// SQL made of other SQL (a compiled condition, a column list) goes through `init(unsafeSQL:binds:)`.
struct PGQuery: Sendable, ExpressibleByStringInterpolation {
    var sql: String
    var binds: [PGValue]

    init(unsafeSQL sql: String, binds: [PGValue] = []) {
        self.sql = sql
        self.binds = binds
    }

    init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    init(stringInterpolation: Interpolation) {
        self.init(unsafeSQL: stringInterpolation.sql, binds: stringInterpolation.binds)
    }

    struct Interpolation: StringInterpolationProtocol {
        var sql = ""
        var binds: [PGValue] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 4 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) { sql += literal }

        mutating func appendInterpolation(_ value: some PGBindable) { bind(value.pgValue) }

        mutating func appendInterpolation(_ value: (some PGBindable)?) { bind(value?.pgValue ?? .null) }

        /// SQL spelled in, not bound: a column list the code holds, never a value.
        mutating func appendInterpolation(unsafeSQL: String) { sql += unsafeSQL }

        private mutating func bind(_ value: PGValue) {
            binds.append(value)
            sql += "$\(binds.count)"
        }
    }
}

/// A statement's answer, copied out of libpq's result: its rows' values in text form.
struct PGRows: Sendable {
    var rows: [PGRow]
    /// How many rows the statement touched (`UPDATE 3`), or returned.
    var affected: Int

    var first: PGRow? { rows.first }
}

/// One row, read by column position.
struct PGRow: Sendable {
    var values: [String?]

    func text(_ column: Int) throws -> String {
        guard let value = try optionalText(column) else { throw PGDecodingError(column: column, expected: "text, not NULL") }
        return value
    }

    func optionalText(_ column: Int) throws -> String? {
        guard values.indices.contains(column) else { throw PGDecodingError(column: column, expected: "a column") }
        return values[column]
    }

    func int(_ column: Int) throws -> Int {
        guard let value = Int(try text(column)) else { throw PGDecodingError(column: column, expected: "an integer") }
        return value
    }

    func int64(_ column: Int) throws -> Int64 {
        guard let value = Int64(try text(column)) else { throw PGDecodingError(column: column, expected: "an integer") }
        return value
    }

    func double(_ column: Int) throws -> Double {
        guard let value = try optionalDouble(column) else { throw PGDecodingError(column: column, expected: "a number, not NULL") }
        return value
    }

    func optionalDouble(_ column: Int) throws -> Double? {
        guard let text = try optionalText(column) else { return nil }
        guard let value = PGRow.double(from: text) else { throw PGDecodingError(column: column, expected: "a number") }
        return value
    }

    /// float8's output: digits, or `Infinity`, `-Infinity`, `NaN`.
    static func double(from text: String) -> Double? {
        switch text {
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }
}

/// A value that is not what the code reading it expects (a schema that changed under it).
struct PGDecodingError: Error, CustomStringConvertible {
    var column: Int
    var expected: String

    var description: String { "PostgreSQL answered column \(column) with something else than \(expected)" }
}
