import Foundation
import OnTheMapModels
import SafeText

/// The `/` filter: a row matches when its name, place or link contains the query, ignoring case
/// and accents ("jose" finds "José").
public enum LocationFilter {
    public static func matches(_ location: StudentInformation, query: String) -> Bool {
        let needle = fold(query.trimmingCharacters(in: .whitespaces))
        guard !needle.isEmpty else { return true }
        let haystack = fold(SafeText.clean(location.fullName + "\n" + location.mapString + "\n" + location.mediaURL))
        return haystack.contains(needle)
    }

    public static func apply(_ query: String, to locations: [StudentInformation]) -> [StudentInformation] {
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return locations }
        return locations.filter { matches($0, query: trimmed) }
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
