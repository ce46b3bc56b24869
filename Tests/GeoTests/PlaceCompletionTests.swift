import Foundation
import Testing

@testable import Geo

/// "Go to"'s completions from the offline gazetteer: folded (case and accents ignored), by a
/// name's start, an alternate name, a word's start, letters in order, and a typo late in a word.
struct PlaceCompletionTests {
    let gazetteer = Gazetteer.shared

    func names(_ text: String) -> [String] { gazetteer.completions(for: text).map(\.placemark.displayName) }

    @Test func aCityByTheStartOfItsNameBiggestFirst() {
        let lis = names("lis")
        #expect(lis.contains("Lisbon, Portugal"), "\(lis)")
        #expect(names("Lisbon").first == "Lisbon, Portugal")
        #expect(names("LISBON").first == "Lisbon, Portugal")
        #expect(gazetteer.completions(for: "Lisbon").first?.placemark.precision == .city)
    }

    @Test func accentsAndAlternateNamesAreIgnoredOrKnown() {
        #expect(names("sao pau").contains("São Paulo, Brazil"), "\(names("sao pau"))")
        #expect(names("São Paulo").first == "São Paulo, Brazil")
        #expect(names("lisboa").first == "Lisbon, Portugal")
        #expect(names("munchen").contains { $0.hasPrefix("Munich") }, "\(names("munchen"))")
    }

    @Test func countriesAndUSStates() {
        let portugal = gazetteer.completions(for: "portug").first
        #expect(portugal?.placemark.displayName == "Portugal")
        #expect(portugal?.placemark.precision == .country)
        let california = gazetteer.completions(for: "Califor").first { $0.placemark.precision == .region }
        #expect(california?.placemark.displayName == "California, United States")
        // Letters in order, and a word's start.
        #expect(names("utd kingdm").contains("United Kingdom"), "\(names("utd kingdm"))")
        #expect(names("emirates").contains("United Arab Emirates"), "\(names("emirates"))")
    }

    /// ASCII names take a short path through `NameFolding.fold`; it must give the index's keys.
    @Test func asciiNamesFoldAsBefore() {
        #expect(NameFolding.fold("St. Louis") == "st louis")
        #expect(NameFolding.fold("  O'Hare -- New-York  City, NY ") == "ohare new york city ny")
        #expect(NameFolding.fold("`Abc`.12") == "abc12")
        #expect(NameFolding.fold("São Paulo") == "sao paulo")
        #expect(NameFolding.fold("") == "" && NameFolding.fold(" ,.- ") == "")
    }

    @Test func aTypoLateInTheWordStillFindsTheCity() {
        #expect(names("lisbn").contains("Lisbon, Portugal"), "\(names("lisbn"))")
        #expect(names("").isEmpty && names("  ,. ").isEmpty)
        #expect(names("zzqqxx").isEmpty)
        #expect(gazetteer.completions(for: "a", limit: 5).count == 5)
    }
}
