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
