/// Makes text from the network safe to put on a terminal, and measures it in columns.
///
/// Every string that came over the wire goes through `clean` before it reaches a screen or a
/// terminal-bound stdout: escape sequences (CSI, OSC, DCS…), C0 and C1 controls, DEL, and the
/// bidirectional overrides and isolates that can make text display in another order than it
/// is stored are removed; line breaks and tabs become spaces.
public enum SafeText {
    /// `text` without anything that could act on a terminal.
    public static func clean(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:
                skipEscapeSequence(&scalars)
            case 0x9B:  // C1 CSI
                skipControlSequence(&scalars)
            case 0x90, 0x9D, 0x98, 0x9E, 0x9F:  // C1 DCS, OSC, SOS, PM, APC: skip to the string terminator
                skipString(&scalars)
            case 0x09, 0x0A, 0x0D:
                output.append(" ")
            default:
                if !isTerminalControl(scalar) { output.append(scalar) }
            }
        }
        return String(output)
    }

    /// Whether `scalar` may act on a terminal or reorder text instead of showing as itself: C0
    /// controls, DEL, C1 controls, the bidirectional marks, embeddings, overrides and isolates,
    /// the interlinear annotation characters and the BOM. `clean` drops them; `escapingControls(inJSON:)`
    /// writes them as `\uXXXX`.
    public static func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F, 0x80..<0xA0: return true
        // Bidi marks, embeddings, overrides and isolates.
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: return true
        case 0xFFF9...0xFFFB, 0xFEFF: return true  // interlinear annotations, BOM
        default: return false
        }
    }

    /// Whether `text` holds any scalar `isTerminalControl` names (tab and line breaks included).
    public static func containsControls(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isTerminalControl)
    }

    /// Whether `text` holds a scalar that prints as nothing: Unicode's Default_Ignorable_Code_Point
    /// (zero-width space, non-joiner and joiner, soft hyphen, word joiner, combining grapheme
    /// joiner, variation selectors, Hangul fillers, …). A name or an address with one prints the
    /// same as one without: a look-alike of another account.
    public static func containsInvisible(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.isDefaultIgnorableCodePoint }
    }

    /// JSON text with every terminal control inside its strings written as a `\uXXXX` escape, so
    /// that the data stays exact (a parser reads back the same strings) and no such scalar
    /// reaches the terminal raw. `JSONEncoder` escapes C0 but leaves DEL, C1 and the bidi
    /// controls as they are. Tab, line feed and carriage return are left alone: outside strings
    /// they are JSON's whitespace (pretty-printing), and inside strings the encoder has already
    /// escaped them. All the controls are in the BMP, so one `\uXXXX` each is enough.
    public static func escapingControls(inJSON json: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if isTerminalControl(scalar), ![0x09, 0x0A, 0x0D].contains(scalar.value) {
                let hex = String(scalar.value, radix: 16, uppercase: false)
                output.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// After ESC: a CSI (`[`), a string (`]`, `P`, `X`, `^`, `_`), or a two-character sequence.
    private static func skipEscapeSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        guard let next = scalars.next() else { return }
        switch next {
        case "[": skipControlSequence(&scalars)
        case "]", "P", "X", "^", "_": skipString(&scalars)
        case " "..."/":  // intermediate bytes, then one final byte
            while let scalar = scalars.next(), (0x20...0x2F).contains(scalar.value) {}
        default: return
        }
    }

    /// Parameters and intermediates up to the final byte (0x40–0x7E).
    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) || scalar.value < 0x20 { return }
        }
    }

    /// Up to BEL, ST (ESC \), or C1 ST.
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                _ = scalars.next()
                return
            default: continue
            }
        }
    }

    /// Columns a cleaned string takes on a terminal: 2 for wide East Asian characters and most
    /// emoji, 0 for combining marks and zero-width characters, 1 otherwise.
    public static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
    }

    /// Columns one scalar takes.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B || (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) { return 0 }
        if isWide(value) { return 2 }
        return 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3, 0x25FD...0x25FE,
            0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
            0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C,
            0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
            0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
            0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `columns` columns, ending in `…` when it was cut.
    public static func truncate(_ text: String, toWidth columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard width(text) > columns else { return text }
        var output = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let scalarWidth = width(of: scalar)
            if used + scalarWidth > columns - 1 { break }
            output.append(scalar)
            used += scalarWidth
        }
        return String(output) + "…"
    }

    /// `text` padded with spaces (or truncated) to exactly `columns` columns.
    public static func pad(_ text: String, toWidth columns: Int) -> String {
        let cut = truncate(text, toWidth: columns)
        return cut + String(repeating: " ", count: max(0, columns - width(cut)))
    }
}
