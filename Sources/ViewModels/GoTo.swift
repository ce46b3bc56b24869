import Foundation
import Geo
import OnTheMapModels
import SafeText

/// Where "Go to" can take the map: a place of the offline gazetteer, or a classmate's row.
public enum GoToTarget: Sendable, Hashable {
    case place(Placemark)
    case classmate(StudentInformation)
}

/// One line of the "Go to" list: what it is called, what kind of thing it is, and where it goes.
public struct GoToCompletion: Sendable, Hashable {
    /// "Lisbon, Portugal" or "Ada Lovelace" (cleaned of terminal controls: a classmate's name
    /// comes from the network).
    public var title: String
    /// "city", "country", "region", or a classmate's place ("classmate · London, UK").
    public var kind: String
    public var target: GoToTarget
    /// How well it matched what was typed (higher is better).
    public var score: Int

    /// The sentence said where the map went (accessible mode, and the toast): "Went to Lisbon, Portugal".
    public var wentTo: String {
        switch target {
        case .place: "Went to \(title)"
        case .classmate: "Went to \(title) (\(kind))"
        }
    }
}

/// The class folded once for "Go to" (`NameFolding`: case, accents and punctuation dropped):
/// folding is the costly part of matching, so a prompt folds the rows when it opens, not on
/// every keystroke.
public struct GoToClass: Sendable {
    let entries: [(row: StudentInformation, name: [UInt8], place: [UInt8])]

    public init(_ rows: [StudentInformation]) {
        var seen = Set<String>()
        entries = rows.compactMap { row in
            guard seen.insert(row.objectId).inserted else { return nil }
            return (row, Array(NameFolding.fold(row.fullName).utf8), Array(NameFolding.fold(row.mapString).utf8))
        }
    }
}

/// The "Go to" prompt (`:` in the main view): what is typed, its completions and the one chosen.
/// Completions come from the offline gazetteer (countries, US states and other regions, cities)
/// and from the class (classmates' names and places), folded as the gazetteer folds names (case,
/// accents and punctuation ignored), and fuzzy: the typed letters may start a word, or appear in
/// order ("ada lvl"). Pure: `complete(_:in:)` is all a keystroke costs (`onthemap-bench` times it).
public struct GoToPrompt: Sendable, Equatable {
    /// At most this many lines are offered.
    public static let limit = 8

    public private(set) var text = ""
    public private(set) var completions: [GoToCompletion] = []
    /// The index of the chosen completion (Up / Down), 0 when there are any.
    public private(set) var chosen = 0
    /// The class as it was when the prompt opened, folded.
    let classmates: GoToClass

    public init(rows: [StudentInformation] = []) {
        classmates = GoToClass(rows)
    }

    public static func == (a: GoToPrompt, b: GoToPrompt) -> Bool {
        a.text == b.text && a.completions == b.completions && a.chosen == b.chosen
    }

    /// The completion Enter goes to, if any.
    public var choice: GoToCompletion? { completions.indices.contains(chosen) ? completions[chosen] : nil }

    /// `text` typed so far, and its completions.
    public mutating func set(_ text: String, gazetteer: Gazetteer = .shared) {
        self.text = String(text.prefix(100))
        completions = Self.complete(self.text, in: classmates, gazetteer: gazetteer)
        chosen = 0
    }

    /// Up / Down through the completions (wrapping).
    public mutating func choose(by delta: Int) {
        guard !completions.isEmpty else { return }
        chosen = ((chosen + delta) % completions.count + completions.count) % completions.count
    }

    /// The completions of `text` among `rows` and the gazetteer (folding `rows` first: a prompt
    /// folds them once, `complete(_:in:)`).
    public static func complete(
        _ text: String, rows: [StudentInformation], gazetteer: Gazetteer = .shared, limit: Int = limit
    ) -> [GoToCompletion] {
        complete(text, in: GoToClass(rows), gazetteer: gazetteer, limit: limit)
    }

    /// The completions of `text`: classmates and places merged by how well they match, classmates
    /// first among equals (the class is what the map is about), at most `limit`.
    public static func complete(
        _ text: String, in classmates: GoToClass, gazetteer: Gazetteer = .shared, limit: Int = limit
    ) -> [GoToCompletion] {
        let key = Array(NameFolding.fold(text).utf8)
        guard !key.isEmpty else { return [] }
        // Scores first; titles (cleaned) only for the classmates that can make the list.
        var matches: [(score: Int, index: Int)] = []
        for (index, entry) in classmates.entries.enumerated() {
            let byName = Gazetteer.score(key, entry.name).map { $0 + 5 }
            let byPlace = Gazetteer.score(key, entry.place)
            let score = max(byName ?? -1, byPlace ?? -1)
            if score >= 0 { matches.append((score, index)) }
        }
        matches.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        var found: [GoToCompletion] = matches.prefix(limit).map { match in
            let row = classmates.entries[match.index].row
            let located = SafeText.clean(row.mapString).trimmingCharacters(in: .whitespaces)
            return GoToCompletion(
                title: SafeText.clean(row.fullName).trimmingCharacters(in: .whitespaces),
                kind: located.isEmpty ? "classmate" : "classmate · \(located)", target: .classmate(row), score: match.score)
        }
        for place in gazetteer.completions(for: text, limit: limit) {
            found.append(
                GoToCompletion(
                    title: place.placemark.displayName, kind: place.placemark.precision.rawValue,
                    target: .place(place.placemark), score: place.score))
        }
        let ranked = found.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }
        return ranked.prefix(limit).map(\.element)
    }
}
