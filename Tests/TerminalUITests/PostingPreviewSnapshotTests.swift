import AppTestSupport
import Geo
import OnTheMapModels
import Testing
import ViewModels

@testable import TerminalUI

/// The posting preview found by the real offline gazetteer: the place's name beside its pin,
/// neighbouring cities or countries and a border line.
@MainActor
struct PostingPreviewSnapshotTests {
    func render(_ model: PostingViewModel, ascii: Bool = false) -> Buffer {
        let base = MainScreen.render(
            MainModel(
                rows: SampleRows.all, totalCount: 6, browse: BrowseState(), status: "6 locations",
                server: "127.0.0.1:8080", now: TestClock.start, ascii: ascii),
            width: 100, height: 36)
        return PostingScreen.render(model, over: base, milliseconds: 0, ascii: ascii).buffer
    }

    /// The query and the name GeoNames gives the place (a country is fitted with its neighbours).
    @Test(arguments: [("Ulaanbaatar", "Ulan Bator"), ("Lisbon, Portugal", "Lisbon"), ("France", "France")])
    func placePreview(_ query: String, _ name: String) async throws {
        for ascii in [false, true] {
            let model = PostingViewModel(api: FakeAPI(), geocoder: OfflineGeocoder(), accountKey: "me")
            model.location = query
            model.link = "https://github.com/ada"
            model.findLocation()
            #expect(await eventually { model.chosen != nil })
            let buffer = render(model, ascii: ascii)
            let slug = query.split(separator: ",")[0].lowercased()
            assertSnapshot(
                buffer.text, styles: buffer.styleText, named: "posting-preview-\(slug)-\(ascii ? "ascii" : "braille")")
            #expect(buffer.text.contains("X \(name)"), "the city's name beside its pin")
            // Country borders are the only white cells (`w`) on the screen.
            #expect(buffer.styleText.contains("w"), "a border line")
            // A country is outlined in yellow (`y`); a city's country is not.
            #expect(buffer.styleText.contains("y") == (query == "France"))
        }
    }

    /// The form's map is `placeMap` at `previewMapSize`, the map `onthemap post` prints.
    @Test func theFormsMapIsThePlaceMapAtItsSize() async throws {
        for (query, ascii) in [("Lisbon, Portugal", false), ("France", true)] {
            let model = PostingViewModel(api: FakeAPI(), geocoder: OfflineGeocoder(), accountKey: "me")
            model.location = query
            model.link = "https://github.com/ada"
            model.findLocation()
            #expect(await eventually { model.chosen != nil })
            let place = try #require(model.chosen)
            let screen = render(model, ascii: ascii).text.split(separator: "\n").map(String.init)
            let size = PostingScreen.previewMapSize
            let map = PostingScreen.placeMap(place, width: size.width, height: size.height, ascii: ascii).lines
            // Found by its busiest row (the sea's rows are blank), then compared row by row.
            let inked = map.map { $0.filter { $0 != " " }.count }
            let busiest = try #require(inked.indices.max { inked[$0] < inked[$1] })
            let found = try #require(screen.firstIndex { $0.contains(map[busiest]) }, "the map's busiest row on screen")
            let first = found - busiest
            let range = try #require(screen[found].range(of: map[busiest]))
            let column = screen[found].distance(from: screen[found].startIndex, to: range.lowerBound)
            for (offset, line) in map.enumerated() {
                let row = Array(screen[first + offset])
                #expect(row.count >= column + size.width, "row \(offset) reaches past the map (the form's frame)")
                #expect(String(row.dropFirst(column).prefix(size.width)) == line, "row \(offset)")
            }
        }
    }
}
