import Foundation

/// A query cleaned and split for the gazetteer: folded comma-separated parts.
struct PlaceQuery: Sendable {
    /// Longest input considered; anything longer is not a place name.
    static let maximumLength = 300

    /// Folded parts, left to right.
    let parts: [String]
    /// The same parts as typed (trimmed), for messages.
    let typedParts: [String]

    /// Words that mark a part as a street address rather than a place name.
    static let streetWords: Set<String> = [
        "street", "st", "avenue", "ave", "av", "road", "rd", "boulevard", "blvd", "parkway", "pkwy",
        "lane", "ln", "drive", "dr", "way", "court", "ct", "place", "pl", "highway", "hwy", "suite",
        "ste", "apt", "apartment", "unit", "floor", "fl", "strasse", "str", "rue", "calle", "via",
        "avenida", "plaza", "square", "sq", "terrace", "circle", "cir", "building", "bldg", "po", "box",
    ]

    /// Splits a raw query; nil when nothing usable is left (only punctuation or control
    /// characters, or far too long to be a place).
    init?(_ raw: String) {
        guard raw.utf8.count <= Self.maximumLength * 4 else { return nil }
        var cleaned = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                cleaned.append(" ")
            default:
                cleaned.append(scalar)
            }
        }
        let text = String(cleaned)
        guard text.count <= Self.maximumLength else { return nil }
        let pairs = text.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "|" })
            .map { (NameFolding.fold(String($0)), $0.trimmingCharacters(in: .whitespaces)) }
            .filter { !$0.0.isEmpty }
        guard !pairs.isEmpty else { return nil }
        self.parts = pairs.map(\.0)
        self.typedParts = pairs.map(\.1)
    }

    /// Whether a folded part or word list looks like a street address.
    static func looksLikeAddress<S: Sequence>(_ words: S) -> Bool where S.Element: StringProtocol {
        words.contains { word in word.contains(where: \.isNumber) || streetWords.contains(String(word)) }
    }
}
