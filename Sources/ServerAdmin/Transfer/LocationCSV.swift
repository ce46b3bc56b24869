import SafeText
import ServerStorage

/// StudentLocation rows as CSV (RFC 4180): a header of the field names, then one line per row.
/// A field that is not set is an empty cell (so CSV cannot tell "not set" from "empty").
///
/// After the ten fields come the row's visibility (Docs/Access.md): `hiddenAt`, `hiddenReason`
/// and `hiddenBy`, empty for a row everyone sees, so that an export imports back as it was.
enum LocationCSV {
    static let visibilityHeader = ["hiddenAt", "hiddenReason", "hiddenBy"]
    static let header = LocationField.allCases.map(\.rawValue) + visibilityHeader

    /// The header line.
    static func headerLine() -> String {
        header.joined(separator: ",") + "\r\n"
    }

    /// One row as a CSV line.
    static func line(_ row: StoredLocation) -> String {
        let cells: [String?] = [
            row.objectId, row.uniqueKey, row.firstName, row.lastName, row.mapString, row.mediaURL,
            row.latitude.map { $0.description }, row.longitude.map { $0.description }, row.createdAt, row.updatedAt,
            row.hiddenAt, row.hiddenAt == nil ? nil : row.hiddenReason, row.hiddenAt == nil ? nil : row.hiddenBy,
        ]
        return cells.map { quote($0 ?? "") }.joined(separator: ",") + "\r\n"
    }

    /// Quotes a cell when it holds a comma, a quote, a line break, or starts with a character a
    /// spreadsheet would run as a formula (`=+-@`), which is then kept as text by a leading `'`.
    /// Controls other than tab and line breaks (ESC, C1, DEL, bidi: `SafeText.isTerminalControl`)
    /// are written as the visible text `\u{XXXX}`: CSV has no escape of its own, and a terminal
    /// or spreadsheet showing the file must not meet them raw (JSON exports keep them exactly).
    static func quote(_ cell: String) -> String {
        let visible = SafeText.containsControls(cell) ? escapingControls(cell) : cell
        let text = looksLikeFormula(visible) ? "'" + visible : visible
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `cell` with each control but tab, line feed and carriage return as `\u{XXXX}`.
    static func escapingControls(_ cell: String) -> String {
        var output = ""
        for scalar in cell.unicodeScalars {
            if SafeText.isTerminalControl(scalar), ![0x09, 0x0A, 0x0D].contains(scalar.value) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\u{" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "}"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Whether a spreadsheet would run `cell` as a formula (or it is such a cell already escaped
    /// with `'`, so that removing one `'` on import gives back exactly what was exported).
    static func looksLikeFormula(_ cell: Substring) -> Bool {
        guard let first = cell.first else { return false }
        if "=+@".contains(first) { return true }
        if first == "-" { return Double(cell) == nil }
        if first == "'" { return looksLikeFormula(cell.dropFirst()) }
        return false
    }

    static func looksLikeFormula(_ cell: String) -> Bool { looksLikeFormula(cell[...]) }
}
