import Foundation
import GRDB
import GRDBSQLite

/// The current row of a statement that selects `AccessSQL.readColumns`, read in place for
/// `LocationJSON`: text straight from `sqlite3_column_text`, as GRDB reads a `String` (up to
/// the first NUL; NULL is missing), numbers from `sqlite3_column_double`.
struct SQLiteLocationColumns: LocationColumns {
    let statement: OpaquePointer

    /// `hidden_at` and `hidden_reason`: after the ten fields, in `AccessSQL.readColumns`.
    private static let hiddenAt: Int32 = 10
    private static let hiddenReason: Int32 = 11

    func withUTF8<Result>(_ field: LocationField, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        text(Self.index(field), body)
    }

    func number(_ field: LocationField) -> Double? {
        let index = Self.index(field)
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
        return sqlite3_column_double(statement, index)
    }

    var isHidden: Bool { sqlite3_column_type(statement, Self.hiddenAt) != SQLITE_NULL }

    func withHiddenReasonUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        text(Self.hiddenReason, body)
    }

    private func text<Result>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        // NULL is a null pointer here (no separate sqlite3_column_type call on this hot path).
        guard let text = sqlite3_column_text(statement, index) else { return body(nil) }
        let bytes = Int(sqlite3_column_bytes(statement, index))
        let count = text.withMemoryRebound(to: CChar.self, capacity: 1) { strnlen($0, bytes) }
        return body(UnsafeBufferPointer(start: text, count: count))
    }

    /// The column of `field` in `AccessSQL.readColumns` (the fields in `LocationField` order).
    private static func index(_ field: LocationField) -> Int32 {
        switch field {
        case .objectId: return 0
        case .uniqueKey: return 1
        case .firstName: return 2
        case .lastName: return 3
        case .mapString: return 4
        case .mediaURL: return 5
        case .latitude: return 6
        case .longitude: return 7
        case .createdAt: return 8
        case .updatedAt: return 9
        }
    }
}
