import Foundation

/// Turns a place name into its lookup key: lower case, accents dropped, punctuation as spaces.
///
/// Must give the same keys as `fold()` in scripts/data/build_geodata.py, which built the index:
/// "São Paulo" → "sao paulo", "Łódź" → "lodz", "St. Louis" → "st louis", "München" → "munchen".
public enum NameFolding {
    private static let manual: [Unicode.Scalar: String] = [
        "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "ß": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe",
        "đ": "d", "Đ": "d", "þ": "th", "Þ": "th", "ð": "d", "Ð": "d", "ı": "i", "ħ": "h", "Ħ": "h",
        "ŀ": "l", "Ŀ": "l", "ŧ": "t", "Ŧ": "t",
    ]
    private static let dropped: Set<Unicode.Scalar> = [".", "'", "’", "ʻ", "ʼ", "`", "´"]

    public static func fold(_ name: String) -> String {
        if let ascii = foldASCII(name) { return ascii }
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in name.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            let mapped = manual[scalar] ?? scalar.properties.lowercaseMapping
            for c in mapped.unicodeScalars {
                if dropped.contains(c) { continue }
                if isAlphanumeric(c) {
                    if pendingSpace && !out.isEmpty { out.append(" ") }
                    pendingSpace = false
                    out.append(c)
                } else {
                    pendingSpace = true
                }
            }
        }
        return String(out)
    }

    /// `fold` of an all-ASCII name, without Unicode decomposition or property lookups (the same
    /// result: ASCII decomposes to itself and has no marks); nil when the name is not ASCII.
    private static func foldASCII(_ name: String) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        var pendingSpace = false
        for byte in name.utf8 {
            guard byte < 0x80 else { return nil }
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: "'"), UInt8(ascii: "`"): continue
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if pendingSpace && !out.isEmpty { out.append(UInt8(ascii: " ")) }
                pendingSpace = false
                out.append(byte | (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? 0x20 : 0))
            default:
                pendingSpace = true
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The German transliteration (ä → ae, ö → oe, ü → ue) folded, or nil without umlauts.
    static func umlautVariant(_ name: String) -> String? {
        let lowered = name.lowercased()
        guard lowered.contains(where: { "äöü".contains($0) }) else { return nil }
        return fold(
            lowered.replacingOccurrences(of: "ä", with: "ae").replacingOccurrences(of: "ö", with: "oe")
                .replacingOccurrences(of: "ü", with: "ue"))
    }

    private static func isAlphanumeric(_ c: Unicode.Scalar) -> Bool {
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }
}
