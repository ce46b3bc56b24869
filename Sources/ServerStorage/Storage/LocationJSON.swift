import SafeText

/// Writes StudentLocation rows as JSON by hand: the list endpoint is the hot path, and a
/// hand-written writer is several times faster than `JSONEncoder` on it.
///
/// Text goes in as whole runs of bytes: a string's UTF-8 is scanned through a table for the
/// bytes that may need an escape and, when none does (nearly always), copied in one go; field
/// names and punctuation are constants. (Going through `String.UTF8View` byte by byte instead
/// cost about 1.3 million instructions for the 100 rows of the main list.)
package struct LocationJSON {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    package mutating func writeList(_ rows: [StoredLocation], count: Int?, keys: Set<LocationField>?) {
        beginList()
        for row in rows { writeListRow(row, keys: keys) }
        endList(count: count)
    }

    /// A list written row by row: `beginList()`, `writeListRow` for each, `endList(count:)`.
    package mutating func beginList() {
        append(#"{"results":["#)
        listRows = 0
    }

    package mutating func writeListRow(_ row: some LocationColumns, keys: Set<LocationField>?) {
        if listRows > 0 { bytes.append(UInt8(ascii: ",")) }
        listRows += 1
        write(row, keys: keys)
    }

    package mutating func endList(count: Int?) {
        bytes.append(UInt8(ascii: "]"))
        if let count {
            append(#","count":"#)
            appendUTF8(String(count))
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private var listRows = 0

    /// One row; fields that are missing (NULL) are left out, as Parse did.
    package mutating func write(_ row: some LocationColumns, keys: Set<LocationField>?) {
        bytes.append(UInt8(ascii: "{"))
        // objectId is always first and always there: the fields after it start with a comma.
        append(#""objectId":"#)
        row.withUTF8(.objectId) { writeString(utf8: $0 ?? UnsafeBufferPointer(start: nil, count: 0)) }
        for field in Self.fieldsAfterObjectId {
            switch field.kind {
            case .number:
                guard let value = row.number(field), key(field, keys) else { continue }
                if value.isFinite {
                    appendUTF8(value.description)
                } else {
                    append("null")
                }
            case .text, .date:
                row.withUTF8(field) { utf8 in
                    guard let utf8, key(field, keys) else { return }
                    writeString(utf8: utf8)
                }
            }
        }
        // Only callers the rule lets see a hidden row get it at all (Docs/Access.md); they see it marked.
        if row.isHidden {
            append(#","hidden":true,"hiddenReason":"#)
            row.withHiddenReasonUTF8 { writeString(utf8: $0 ?? UnsafeBufferPointer(start: nil, count: 0)) }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private static let fieldsAfterObjectId = LocationField.allCases.filter { $0 != .objectId }

    /// `,"name":` of a field after the first, if the row has it and `keys` asks for it
    /// (`keys=` always keeps objectId, createdAt and updatedAt).
    private mutating func key(_ field: LocationField, _ keys: Set<LocationField>?) -> Bool {
        if let keys, !keys.contains(field), field != .createdAt, field != .updatedAt { return false }
        append(Self.key(field))
        return true
    }

    private static func key(_ field: LocationField) -> StaticString {
        switch field {
        case .objectId: return #","objectId":"#
        case .uniqueKey: return #","uniqueKey":"#
        case .firstName: return #","firstName":"#
        case .lastName: return #","lastName":"#
        case .mapString: return #","mapString":"#
        case .mediaURL: return #","mediaURL":"#
        case .latitude: return #","latitude":"#
        case .longitude: return #","longitude":"#
        case .createdAt: return #","createdAt":"#
        case .updatedAt: return #","updatedAt":"#
        }
    }

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Text that is JSON already (LiveQuery's message envelopes).
    package mutating func appendRaw(_ text: String) { appendUTF8(text) }

    /// A JSON string: quotes, backslashes and every control character escaped — C0, DEL, and
    /// also C1 and the bidi controls (`SafeText.isTerminalControl`), so that no reader of the
    /// JSON (a terminal showing an export, a log) meets them raw; a parser reads back the same
    /// string. Other UTF-8 as is.
    package mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        let plain = value.withUTF8 { utf8 in
            Self.mayNeedEscape.withUnsafeBufferPointer { table in
                for byte in utf8 where table[Int(byte)] { return false }
                bytes.append(contentsOf: utf8)
                return true
            }
        }
        if !plain { writeEscaped(value) }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A JSON string from UTF-8 read in place (a SQLite column): ASCII that needs no escape is
    /// copied in one go; anything else is read as a `String` first (repairing invalid UTF-8 as
    /// `String(cString:)` does) and written by `writeString(_:)`.
    package mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
        let plain = Self.mayNeedEscapeOrIsNotASCII.withUnsafeBufferPointer { table in
            for byte in utf8 where table[Int(byte)] { return false }
            return true
        }
        guard plain else { return writeString(String(decoding: utf8, as: UTF8.self)) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    private static let mayNeedEscapeOrIsNotASCII: [Bool] = (0...255).map { $0 >= 0x80 || mayNeedEscape[$0] }

    /// The bytes that send a string the slow way: those JSON escapes (C0, `"`, `\`), DEL, and the
    /// lead bytes of every C1 and bidi control (0xC2 U+0080…, 0xD8 U+061C, 0xE2 U+200E…,
    /// 0xEF U+FEFF…). Most text has none of them and is copied in one go.
    private static let mayNeedEscape: [Bool] = (0...255).map { byte in
        byte < 0x20 || [0x22, 0x5C, 0x7F, 0xC2, 0xD8, 0xE2, 0xEF].contains(byte)
    }

    private mutating func writeEscaped(_ value: String) {
        let hex = Array("0123456789abcdef".utf8)
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: append(#"\""#)
            case 0x5C: append(#"\\"#)
            case 0x0A: append(#"\n"#)
            case 0x0D: append(#"\r"#)
            case 0x09: append(#"\t"#)
            case let code where SafeText.isTerminalControl(scalar):
                // Every such scalar is in the BMP: one \uXXXX.
                append(#"\u"#)
                for shift in [12, 8, 4, 0] { bytes.append(hex[Int((code >> UInt32(shift)) & 0xF)]) }
            default: UTF8.encode(scalar) { bytes.append($0) }
            }
        }
    }
}

/// A row's columns as `LocationJSON` reads them: a `StoredLocation`, or the current row of a
/// SQLite statement read in place (`SQLiteLocationColumns`), so that the list's answer is
/// written without making its rows first.
package protocol LocationColumns {
    /// Calls `body` with the UTF-8 of a text or date field, `nil` when it is missing.
    func withUTF8<Result>(_ field: LocationField, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result
    func number(_ field: LocationField) -> Double?
    var isHidden: Bool { get }
    func withHiddenReasonUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result
}

extension StoredLocation: LocationColumns {
    package func withUTF8<Result>(_ field: LocationField, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        let text: String?
        switch field {
        case .objectId: text = objectId
        case .uniqueKey: text = uniqueKey
        case .firstName: text = firstName
        case .lastName: text = lastName
        case .mapString: text = mapString
        case .mediaURL: text = mediaURL
        case .createdAt: text = createdAt
        case .updatedAt: text = updatedAt
        case .latitude, .longitude: text = nil
        }
        return Self.withUTF8(text, body)
    }

    package func number(_ field: LocationField) -> Double? {
        switch field {
        case .latitude: return latitude
        case .longitude: return longitude
        default: return nil
        }
    }

    package func withHiddenReasonUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        Self.withUTF8(hiddenReason, body)
    }

    private static func withUTF8<Result>(_ text: String?, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        guard var text else { return body(nil) }
        return text.withUTF8 { body($0) }
    }
}
