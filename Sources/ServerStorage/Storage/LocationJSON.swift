import SafeText

/// Writes StudentLocation rows as JSON by hand: the list endpoint is the hot path, and a
/// hand-written writer is several times faster than `JSONEncoder` on it.
///
/// The writer owns one growing buffer (so it cannot be copied) and writes into it through a
/// pointer: an `Array` append costs tens of instructions a call, and a row takes about forty of
/// them. Text goes in as whole runs of bytes: a string's UTF-8 is checked eight bytes at a time
/// for the bytes that may need an escape and, when none does (nearly always), copied in one go;
/// field names and punctuation are constants. Coordinates of up to nine decimals are written
/// without `Double.description`, with the same digits (`writeShortDecimal`).
package struct LocationJSON: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    private var listRows = 0

    package init(capacity: Int = 256) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// What has been written so far.
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The same, as text (LiveQuery's messages), decoded from the buffer in place.
    package var text: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

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
        if listRows > 0 { put(UInt8(ascii: ",")) }
        listRows += 1
        write(row, keys: keys)
    }

    package mutating func endList(count: Int?) {
        put(UInt8(ascii: "]"))
        if let count {
            append(#","count":"#)
            appendUTF8(String(count))
        }
        put(UInt8(ascii: "}"))
    }

    /// One row; fields that are missing (NULL) are left out, as Parse did.
    package mutating func write(_ row: some LocationColumns, keys: Set<LocationField>?) {
        put(UInt8(ascii: "{"))
        // objectId is always first and always there: the fields after it start with a comma.
        append(#""objectId":"#)
        row.withUTF8(.objectId) { writeString(utf8: $0 ?? UnsafeBufferPointer(start: nil, count: 0)) }
        for field in Self.fieldsAfterObjectId {
            switch field.kind {
            case .number:
                guard let value = row.number(field), key(field, keys) else { continue }
                writeNumber(value)
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
        put(UInt8(ascii: "}"))
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

    // MARK: The buffer

    /// Room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if capacity - count < extra { grow(toFit: extra) }
    }

    private mutating func grow(toFit extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.initialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = newCapacity
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private mutating func put(_ bytes: UnsafePointer<UInt8>, count length: Int) {
        reserve(length)
        Self.copy(bytes, to: base + count, count: length)
        count += length
    }

    /// Most runs a row is made of (field names, ids, names, dates) are 4 to 24 bytes: those are
    /// copied as two or three overlapping words instead of through a `memcpy` call.
    @inline(__always)
    private static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count length: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        switch length {
        case 8...24:
            let first = from.loadUnaligned(as: UInt64.self)
            let middle = from.loadUnaligned(fromByteOffset: (length - 8) / 2, as: UInt64.self)
            let last = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            to.storeBytes(of: first, as: UInt64.self)
            to.storeBytes(of: middle, toByteOffset: (length - 8) / 2, as: UInt64.self)
            to.storeBytes(of: last, toByteOffset: length - 8, as: UInt64.self)
        case 4..<8:
            let first = from.loadUnaligned(as: UInt32.self)
            let last = from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            to.storeBytes(of: first, as: UInt32.self)
            to.storeBytes(of: last, toByteOffset: length - 4, as: UInt32.self)
        case 0..<4:
            for index in 0..<length { target[index] = source[index] }
        default:
            target.update(from: source, count: length)
        }
    }

    private mutating func append(_ text: StaticString) {
        put(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    private mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            guard let start = utf8.baseAddress else { return }
            put(start, count: utf8.count)
        }
    }

    /// Text that is JSON already (LiveQuery's message envelopes).
    package mutating func appendRaw(_ text: String) { appendUTF8(text) }

    // MARK: Strings

    /// A JSON string: quotes, backslashes and every control character escaped — C0, DEL, and
    /// also C1 and the bidi controls (`SafeText.isTerminalControl`), so that no reader of the
    /// JSON (a terminal showing an export, a log) meets them raw; a parser reads back the same
    /// string. Other UTF-8 as is.
    package mutating func writeString(_ value: String) {
        put(UInt8(ascii: "\""))
        var value = value
        let plain = value.withUTF8 { utf8 in
            Self.mayNeedEscape.withUnsafeBufferPointer { table in
                for byte in utf8 where table[Int(byte)] { return false }
                if let start = utf8.baseAddress { put(start, count: utf8.count) }
                return true
            }
        }
        if !plain { writeEscaped(value) }
        put(UInt8(ascii: "\""))
    }

    /// A JSON string from UTF-8 read in place (a SQLite column): ASCII that needs no escape is
    /// copied in one go; anything else is read as a `String` first (repairing invalid UTF-8 as
    /// `String(cString:)` does) and written by `writeString(_:)`.
    package mutating func writeString(utf8: UnsafeBufferPointer<UInt8>) {
        guard Self.isPlainASCII(utf8) else { return writeString(String(decoding: utf8, as: UTF8.self)) }
        let length = utf8.count
        reserve(length + 2)
        base[count] = UInt8(ascii: "\"")
        if let start = utf8.baseAddress { Self.copy(start, to: base + count + 1, count: length) }
        base[count + 1 + length] = UInt8(ascii: "\"")
        count += length + 2
    }

    /// Whether every byte is ASCII that a JSON string takes as is: no C0 control, `"`, `\` or
    /// DEL, and nothing at or above 0x80. Eight bytes at a time: a byte's high bit marks it in
    /// each of the words below (the tests for a zero byte and for a byte below 0x20 are exact
    /// about whether a word has such a byte, which is all this asks).
    static func isPlainASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = utf8.baseAddress else { return true }
        let length = utf8.count
        guard length >= 8 else {
            for byte in utf8 where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return false }
            return true
        }
        let raw = UnsafeRawPointer(start)
        // Whole words, the last one overlapping the one before it (no byte-by-byte tail).
        var offset = 0
        while true {
            if hasMarkedByte(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return false }
            if offset == length - 8 { return true }
            offset = min(offset + 8, length - 8)
        }
    }

    @inline(__always)
    private static func hasMarkedByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let marked =
            word  // 0x80 and above
            | (word &+ ones)  // 0x7F (with no byte above it, nothing carries)
            | ((word &- ones &* 0x20) & ~word)  // below 0x20
            | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        return marked & 0x8080_8080_8080_8080 != 0
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
                for shift in [12, 8, 4, 0] { put(hex[Int((code >> UInt32(shift)) & 0xF)]) }
            default: UTF8.encode(scalar) { put($0) }
            }
        }
    }

    // MARK: Numbers

    /// `value.description` (Swift's shortest text that reads back as the same `Double`), or
    /// `null` for NaN and the infinities.
    private mutating func writeNumber(_ value: Double) {
        guard value.isFinite else { return append("null") }
        if !writeShortDecimal(value) { appendUTF8(value.description) }
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    /// `value`'s magnitude as digits and a count of decimals — the fewest decimals (up to nine)
    /// whose text reads back as `value`, as `description` chooses them; nil for a value outside
    /// 0.001 ≤ |value| < 10,000,000 or one that needs more decimals.
    ///
    /// Why the digits are `description`'s: for each count of decimals `k`, `n` is the integer
    /// nearest to `|value| × 10ᵏ` (the product is below 2⁵⁰, so its rounding error is under a
    /// quarter, and an integer whose text reads back as `value` is within a quarter of it: a
    /// product halfway between two integers has none, so which way a tie rounds does not matter);
    /// `n` and `10ᵏ` are exact doubles, so `n / 10ᵏ` is correctly rounded, and it equals `value`
    /// exactly when the text `n·10⁻ᵏ` reads back as `value`. The first such `k` gives the fewest
    /// digits, and `n` the closest of them: Swift's choice. In this range `description` writes
    /// plain decimals, and at least one (`5.0`). `LocationJSONTests` compares the two.
    static func shortDecimal(_ value: Double) -> (digits: UInt64, decimals: Int)? {
        let magnitude = value.magnitude
        guard magnitude >= 1e-3, magnitude < 1e7 else { return nil }
        return powersOfTen.withUnsafeBufferPointer { powers in
            for decimals in 0..<powers.count {
                let scaled = magnitude * powers[decimals]
                guard scaled < 1e15 else { return nil }
                // The nearest integer, by adding and taking away 2⁵² (no libm call).
                let nearest = (scaled + 0x1p52) - 0x1p52
                if nearest / powers[decimals] == magnitude { return (UInt64(nearest), decimals) }
            }
            return nil
        }
    }

    private mutating func writeShortDecimal(_ value: Double) -> Bool {
        guard let (digits, decimals) = Self.shortDecimal(value) else { return false }
        var digitCount = 1
        var rest = digits
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        // Leading zeros so that a digit stands before the point: 0.005 is 5 with 3 decimals.
        let length = max(digitCount, decimals + 1)
        reserve(length + 3)
        if value < 0 { put(UInt8(ascii: "-")) }
        // The digits, last first, around the point.
        let point = count + length - decimals
        var position = count + length
        rest = digits
        for _ in 0..<length {
            if position == point { position -= 1 }
            base[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            position -= 1
        }
        base[point] = UInt8(ascii: ".")
        count += length + 1
        if decimals == 0 { put(UInt8(ascii: "0")) }
        return true
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
