import AppTestSupport
import Foundation
import Testing
import ViewModels
import WorldMap

@testable import TerminalUI

/// Accessible mode's Map pane: the view told in words at world, country and city zoom, and the
/// one sentence each map action ends in, driven through the whole app.
@MainActor
struct AccessibleMapTests {
    static let london = GeoPoint(latitude: 51.5, longitude: -0.13)

    /// Characters a screen reader reads as noise: Braille (U+2800–U+28FF) and box drawing
    /// (U+2500–U+257F) and block elements (U+2580–U+259F).
    static func noise(_ text: String) -> [Character] {
        text.filter { character in
            character.unicodeScalars.contains {
                (0x2800...0x28FF).contains($0.value) || (0x2500...0x259F).contains($0.value)
            }
        }
    }

    static func words(latitude: Double, longitude: Double, zoom: Double) -> String {
        let viewport = Viewport(
            width: 100, height: 30, centerLatitude: latitude, centerLongitude: longitude, zoom: zoom)
        return MapWords.lines(
            viewport: viewport, rows: SampleRows.all, selectedID: "r2", viewer: Viewer(accountKey: FakeAPI.accountKey), home: london,
            now: TestClock.start
        ).map(\.text).joined(separator: "\n")
    }

    @Test func theWorldCountryAndCityInWords() {
        let text = [
            "world:", Self.words(latitude: 12, longitude: 0, zoom: 1),
            "\ncountry (zoom 16 on Spain):", Self.words(latitude: 40.2, longitude: -3.7, zoom: 16),
            "\ncity (zoom 128 on London):", Self.words(latitude: 51.5, longitude: -0.13, zoom: 128),
        ].joined(separator: "\n")
        assertSnapshot(text, named: "accessible-map-words")
        #expect(Self.noise(text).isEmpty)
        #expect(text.contains("José Núñez") && text.contains("EvilRed Name"), "names as written, escapes cleaned")
    }

    @Test func aNameOfBrailleAndBoxDrawingIsNotReadAsNoise() {
        let row = SampleRows.row("x", "Mal\u{2800}\u{28FF}lory \u{2500}\u{2588}Box", latitude: 48.85, longitude: 2.35)
        let text = MapWords.describe(row, viewer: Viewer(), home: nil, now: TestClock.start)
        #expect(Self.noise(text).isEmpty)
        #expect(text.hasPrefix("Mal  lory   Box"))
    }

    @Test func withoutAHomeTheNewestComeFirst() {
        let viewport = Viewport(width: 100, height: 30)
        let lines = MapWords.lines(
            viewport: viewport, rows: SampleRows.all, selectedID: nil, viewer: Viewer(), home: nil, now: TestClock.start)
        let ids = lines.compactMap { $0.id }
        // Newest first within each country group; the newest row's group comes first.
        #expect(ids.first == "r1")
        #expect(lines[1].text.contains("newest first"))
    }

    func loggedIn() async -> AppController {
        let model = AppViewModel(
            api: FakeAPI(), geocoder: FakeGeocoder(),
            opener: LinkOpener(environment: ["BROWSER": "/nonexistent", "PATH": "/nonexistent"]),
            serverName: "127.0.0.1:8080", cache: nil, clock: TestClock.fixed)
        let ui = AppController(app: model, keys: .standard, ascii: true)
        ui.accessible = true
        for character in "demo@onthemap.example" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.tab))
        for character in "onthemap" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.phase == .browsing && ui.app.store.locations.count == 6 })
        _ = ui.frame(width: 120, height: 40)
        return ui
    }

    @Test func eachMapActionEndsInOneSentence() async {
        let ui = await loggedIn()
        ui.app.browse.pane = .map
        ui.app.browse.selectedID = "r2"
        var said: [String] = []
        let keys: [(String, Key)] = [
            ("+", .character("+")), ("+", .character("+")), ("+", .character("+")), ("-", .character("-")),
            ("left", .left), ("right", .right), ("up", .up), ("down", .down), ("n", .character("n")),
            ("N", .character("N")), ("c", .character("c")), ("f", .character("f")), ("F", .character("F")),
            ("0", .character("0")), ("Enter", .enter), ("Esc", .escape),
        ]
        for (name, key) in keys {
            ui.handle(.key(key))
            let frame = ui.frame(width: 120, height: 40)
            #expect(Self.noise(frame.buffer.text).isEmpty, "no Braille or box drawing after \(name)")
            let sentence = ui.lastAnnouncement ?? "(nothing)"
            #expect(frame.buffer.text.contains(String(sentence.prefix(60))), "the sentence is on screen after \(name)")
            said.append("\(name): \(sentence)")
        }
        assertSnapshot(said.joined(separator: "\n"), named: "accessible-map-sentences")
    }

    @Test func theDefaultModeStillDrawsTheMap() async {
        let ui = await loggedIn()
        ui.accessible = false
        ui.app.browse.pane = .map
        ui.handle(.key(.character("+")))
        #expect(ui.lastAnnouncement == nil)
        #expect(ui.frame(width: 120, height: 40).buffer.text.contains("pins here"))
    }
}
