import SafeText

/// Writes StudentLocation rows as JSON by hand: the list endpoint is the hot path, and a
/// hand-written writer is several times faster than `JSONEncoder` on it.
struct LocationJSON {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func writeList(_ rows: [StoredLocation], count: Int?, keys: Set<LocationField>?) {
        bytes.append(contentsOf: #"{"results":["#.utf8)
        for (index, row) in rows.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(row, keys: keys)
        }
        bytes.append(UInt8(ascii: "]"))
        if let count {
            bytes.append(contentsOf: #","count":"#.utf8)
            bytes.append(contentsOf: String(count).utf8)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// One row; fields that are missing (NULL) are left out, as Parse did.
    mutating func write(_ row: StoredLocation, keys: Set<LocationField>?) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        func key(_ field: LocationField) -> Bool {
            guard keys == nil || keys?.contains(field) == true || [.objectId, .createdAt, .updatedAt].contains(field) else {
                return false
            }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: field.rawValue.utf8)
            bytes.append(contentsOf: #"":"#.utf8)
            return true
        }
        func text(_ field: LocationField, _ value: String?) {
            guard let value, key(field) else { return }
            writeString(value)
        }
        func number(_ field: LocationField, _ value: Double?) {
            guard let value, key(field) else { return }
            if value.isFinite {
                bytes.append(contentsOf: value.description.utf8)
            } else {
                bytes.append(contentsOf: "null".utf8)
            }
        }
        text(.objectId, row.objectId)
        text(.uniqueKey, row.uniqueKey)
        text(.firstName, row.firstName)
        text(.lastName, row.lastName)
        text(.mapString, row.mapString)
        text(.mediaURL, row.mediaURL)
        number(.latitude, row.latitude)
        number(.longitude, row.longitude)
        text(.createdAt, row.createdAt)
        text(.updatedAt, row.updatedAt)
        // Only callers the rule lets see a hidden row get it at all (Docs/Access.md); they see it marked.
        if row.isHidden {
            bytes.append(contentsOf: #","hidden":true,"hiddenReason":"#.utf8)
            writeString(row.hiddenReason ?? "")
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Text that is JSON already (LiveQuery's message envelopes).
    mutating func appendRaw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// A JSON string: quotes, backslashes and every control character escaped — C0, DEL, and
    /// also C1 and the bidi controls (`SafeText.isTerminalControl`), so that no reader of the
    /// JSON (a terminal showing an export, a log) meets them raw; a parser reads back the same
    /// string. Other UTF-8 as is.
    mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escaping: copy it in one go. The lead bytes of every C1 and bidi
        // control (0xC2 U+0080…, 0xD8 U+061C, 0xE2 U+200E…, 0xEF U+FEFF…) send it the slow way.
        if !value.utf8.contains(where: {
            $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 || $0 == 0xEF
        }) {
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        let hex = Array("0123456789abcdef".utf8)
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: bytes.append(contentsOf: #"\""#.utf8)
            case 0x5C: bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case let code where SafeText.isTerminalControl(scalar):
                // Every such scalar is in the BMP: one \uXXXX.
                bytes.append(contentsOf: #"\u"#.utf8)
                for shift in [12, 8, 4, 0] { bytes.append(hex[Int((code >> UInt32(shift)) & 0xF)]) }
            default: UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
