import ClassRules
import Foundation
import OnTheMapModels
import ServerStorage

/// Turns rows of an export or of an old Parse dump into rows to store, deciding what to keep.
///
/// Rules: a row without finite latitude −90…90 and longitude −180…180 is skipped (the API would
/// refuse to create it, and every client skips it); a numeric `uniqueKey` becomes text; a row
/// without a usable `objectId` (10 to 32 of `[A-Za-z0-9]`) gets a new one; dates that are not
/// ISO-8601 become the import time; text with a NUL or over `maxStringBytes` is skipped.
///
/// Visibility is kept (Docs/Access.md): a row with `"hidden": true` (JSON) or a `hiddenAt` date
/// (JSON or CSV) is imported hidden, with its `hiddenReason` and `hiddenBy` (an export writes
/// all three); a hidden row whose file gives no date, reason or hider is hidden at the import
/// time, for "hidden before import", by `operator`. A row is never made visible by an import.
///
/// Only those marks are read: `hidden` other than `true` or `false` (`"true"`, `1`), a CSV
/// `hidden` column, a `hiddenAt` that is not a date, or a `hiddenReason` or `hiddenBy` on a row
/// not marked hidden is refused (`Refusal`, with the row's number), and the whole file with it:
/// a mark read the wrong way would show a hidden row to the class.
struct LocationImport {
    /// A file whose hidden marks are not an export's.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// What an import did.
    struct Report: Sendable, Equatable {
        var read = 0
        var imported = 0
        var skippedCoordinates = 0
        var skippedDuplicates = 0
        var skippedMalformed = 0
    }

    enum ImportError: Error { case malformed }

    var maxStringBytes = 1024
    var now = WireDate.string(from: Date())

    /// A row from a JSON object, or `nil` when it must be skipped (with the reason counted);
    /// throws `Refusal` when its hidden marks are not an export's.
    func row(from object: [String: JSONValue], report: inout Report) throws(Refusal) -> StoredLocation? {
        // The date in the server's format, read once.
        let hiddenAt: String?
        switch object["hiddenAt"] {
        case .none, .some(.null): hiddenAt = nil
        case .some(.string(let value)) where value.isEmpty: hiddenAt = nil
        case .some(let value):
            guard let parsed = date(value) else { throw Refusal(description: "hiddenAt is not a date (\(Self.shown(value)))") }
            hiddenAt = parsed
        }
        let markedHidden: Bool
        switch object["hidden"] {
        case .none, .some(.null), .some(.bool(false)): markedHidden = hiddenAt != nil
        case .some(.bool(true)): markedHidden = true
        case .some(let value): throw Refusal(description: "hidden is not true or false (\(Self.shown(value)))")
        }
        if !markedHidden {
            for name in ["hiddenReason", "hiddenBy"] {
                switch object[name] {
                case .none, .some(.null): continue
                case .some(.string(let value)) where value.isEmpty: continue
                default: throw Refusal(description: "\(name) on a row that is not hidden (no hidden: true, no hiddenAt)")
                }
            }
        }
        /// `.success(nil)`: not set; `.failure`: unusable.
        func text(_ name: String) -> Result<String?, ImportError> {
            switch object[name] {
            case .none, .some(.null):
                return .success(nil)
            case .some(.string(let value)):
                guard value.utf8.count <= maxStringBytes, !value.utf8.contains(0) else { return .failure(.malformed) }
                return .success(value)
            case .some(.number(let value)) where name == "uniqueKey" && value.isFinite:
                // Old dumps had numeric keys: as text, the way the wire model reads them.
                return .success(JSONValue.number(value).stringValue)
            default:
                return .failure(.malformed)
            }
        }
        guard let latitude = object["latitude"]?.doubleValue, CoordinateBounds.isValidLatitude(latitude),
            let longitude = object["longitude"]?.doubleValue, CoordinateBounds.isValidLongitude(longitude)
        else {
            report.skippedCoordinates += 1
            return nil
        }
        let names = ["uniqueKey", "firstName", "lastName", "mapString", "mediaURL"]
        var fields: [String: String] = [:]
        for name in names {
            switch text(name) {
            case .success(let value): fields[name] = value
            case .failure:
                report.skippedMalformed += 1
                return nil
            }
        }
        let created = date(object["createdAt"]) ?? now
        var row = StoredLocation(
            objectId: objectId(object["objectId"]) ?? RandomID.alphanumeric(10), uniqueKey: fields["uniqueKey"],
            firstName: fields["firstName"], lastName: fields["lastName"], mapString: fields["mapString"],
            mediaURL: fields["mediaURL"], latitude: latitude, longitude: longitude, createdAt: created,
            updatedAt: date(object["updatedAt"]) ?? created)
        if markedHidden {
            guard case .success(let reason) = text("hiddenReason"), case .success(let hider) = text("hiddenBy") else {
                report.skippedMalformed += 1
                return nil
            }
            row.hiddenAt = hiddenAt ?? now
            row.hiddenReason = reason.flatMap { $0.isEmpty ? nil : $0 } ?? Self.unknownReason
            row.hiddenBy = hider.flatMap { $0.isEmpty ? nil : $0 } ?? AuditLog.operator
        }
        return row
    }

    /// The reason of a row a file marks hidden without saying why.
    static let unknownReason = "hidden before import"

    /// A row from a CSV record under `header` (empty cells are "not set"). An export's CSV has no
    /// `hidden` column (a hidden row has a `hiddenAt`): the caller refuses a header with one.
    func row(fromCSV cells: [String], header: [String], report: inout Report) throws(Refusal) -> StoredLocation? {
        var object: [String: JSONValue] = [:]
        for (name, cell) in zip(header, cells) where !cell.isEmpty {
            var value = cell
            if value.hasPrefix("'"), LocationCSV.looksLikeFormula(value.dropFirst()) { value.removeFirst() }
            object[name] = .string(value)
        }
        return try row(from: object, report: &report)
    }

    /// A value as a refusal quotes it: JSON, at most 40 characters.
    private static func shown(_ value: JSONValue) -> String {
        let text: String
        switch value {
        case .string(let string): text = "\"\(string)\""
        case .bool(let bool): text = "\(bool)"
        case .number(let number): text = value.stringValue ?? "\(number)"
        case .null: text = "null"
        case .array: text = "an array"
        case .object: text = "an object"
        }
        return String(text.prefix(40))
    }

    private func objectId(_ value: JSONValue?) -> String? {
        guard case .string(let id) = value, (10...32).contains(id.count),
            id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { return nil }
        return id
    }

    /// The date in the server's format (`…T…:…:….mmmZ`), or `nil` when it is not a date.
    private func date(_ value: JSONValue?) -> String? {
        guard case .string(let text) = value, let date = WireDate.date(from: text) else { return nil }
        return WireDate.string(from: date)
    }
}
