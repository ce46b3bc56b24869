import SafeText

/// Writes StudentLocation rows as JSON by hand: the list endpoint is the hot path, and a
/// hand-written writer is several times faster than `JSONEncoder` on it.
///
/// Text goes in as whole runs of bytes: a string's UTF-8 is scanned through a table for the
/// bytes that may need an escape and, when none does (nearly always), copied in one go; field
/// names and punctuation are constants. (Going through `String.UTF8View` byte by byte instead
/// cost about 1.3 million instructions for the 100 rows of the main list.)
struct LocationJSON {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func writeList(_ rows: [StoredLocation], count: Int?, keys: Set<LocationField>?) {
        append(#"{"results":["#)
        for (index, row) in rows.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(row, keys: keys)
        }
        bytes.append(UInt8(ascii: "]"))
        if let count {
            append(#","count":"#)
            appendUTF8(String(count))
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// One row; fields that are missing (NULL) are left out, as Parse did.
    mutating func write(_ row: StoredLocation, keys: Set<LocationField>?) {
        bytes.append(UInt8(ascii: "{"))
        // objectId is always first and always there: the fields after it start with a comma.
        append(#""objectId":"#)
        writeString(row.objectId)
        text(.uniqueKey, row.uniqueKey, keys)
        text(.firstName, row.firstName, keys)
        text(.lastName, row.lastName, keys)
        text(.mapString, row.mapString, keys)
        text(.mediaURL, row.mediaURL, keys)
        number(.latitude, row.latitude, keys)
        number(.longitude, row.longitude, keys)
        text(.createdAt, row.createdAt, keys)
        text(.updatedAt, row.updatedAt, keys)
        // Only callers the rule lets see a hidden row get it at all (Docs/Access.md); they see it marked.
        if row.isHidden {
            append(#","hidden":true,"hiddenReason":"#)
            writeString(row.hiddenReason ?? "")
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `,"name":` of a field after the first, if the row has it and `keys` asks for it
    /// (`keys=` always keeps objectId, createdAt and updatedAt).
    private mutating func key(_ field: LocationField, _ keys: Set<LocationField>?) -> Bool {
        if let keys, !keys.contains(field), field != .createdAt, field != .updatedAt { return false }
        append(Self.key(field))
        return true
    }

    private mutating func text(_ field: LocationField, _ value: String?, _ keys: Set<LocationField>?) {
        guard let value, key(field, keys) else { return }
        writeString(value)
    }

    private mutating func number(_ field: LocationField, _ value: Double?, _ keys: Set<LocationField>?) {
        guard let value, key(field, keys) else { return }
        if value.isFinite {
            appendUTF8(value.description)
        } else {
            append("null")
        }
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
    mutating func appendRaw(_ text: String) { appendUTF8(text) }

    /// A JSON string: quotes, backslashes and every control character escaped — C0, DEL, and
    /// also C1 and the bidi controls (`SafeText.isTerminalControl`), so that no reader of the
    /// JSON (a terminal showing an export, a log) meets them raw; a parser reads back the same
    /// string. Other UTF-8 as is.
    mutating func writeString(_ value: String) {
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
