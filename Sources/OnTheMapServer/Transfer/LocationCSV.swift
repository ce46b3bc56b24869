/// StudentLocation rows as CSV (RFC 4180): a header of the field names, then one line per row.
/// A field that is not set is an empty cell (so CSV cannot tell "not set" from "empty").
enum LocationCSV {
    static let header = LocationField.allCases.map(\.rawValue)

    /// The header line.
    static func headerLine() -> String {
        header.joined(separator: ",") + "\r\n"
    }

    /// One row as a CSV line.
    static func line(_ row: StoredLocation) -> String {
        let cells: [String?] = [
            row.objectId, row.uniqueKey, row.firstName, row.lastName, row.mapString, row.mediaURL,
            row.latitude.map { $0.description }, row.longitude.map { $0.description }, row.createdAt, row.updatedAt,
        ]
        return cells.map { quote($0 ?? "") }.joined(separator: ",") + "\r\n"
    }

    /// Quotes a cell when it holds a comma, a quote, a line break, or starts with a character a
    /// spreadsheet would run as a formula (`=+-@`), which is then kept as text by a leading `'`.
    static func quote(_ cell: String) -> String {
        let text = looksLikeFormula(cell) ? "'" + cell : cell
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
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

    /// Splits CSV text into records of cells (quoted cells may hold commas, quotes and line breaks).
    static func records(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var cell = ""
        var quoted = false
        var characters = text.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? characters.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    let next = characters.next()
                    if next == "\"" {
                        cell.append("\"")
                    } else {
                        quoted = false
                        pending = next
                    }
                } else {
                    cell.append(character)
                }
                continue
            }
            switch character {
            case "\"" where cell.isEmpty:
                quoted = true
            case ",":
                record.append(cell)
                cell = ""
            case "\r\n", "\n", "\r":
                record.append(cell)
                cell = ""
                if record != [""] { records.append(record) }
                record = []
            default: cell.append(character)
            }
        }
        record.append(cell)
        if record != [""] { records.append(record) }
        return records
    }
}
