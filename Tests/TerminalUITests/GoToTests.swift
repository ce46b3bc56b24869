import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

/// "Go to" (`:`) through the whole app: the prompt drawn over the map (state → cells), Enter moving
/// the map (a city close in with its name in view, a country fitted, a classmate selected), Esc,
/// and accessible mode saying where it went.
@MainActor
struct GoToTests {
    func loggedIn(accessible: Bool = false) async -> AppController {
        let model = AppViewModel(
            api: FakeAPI(), geocoder: FakeGeocoder(),
            opener: LinkOpener(environment: ["BROWSER": "/nonexistent", "PATH": "/nonexistent"]),
            serverName: "127.0.0.1:8080", cache: nil, clock: TestClock.fixed)
        let ui = AppController(app: model, keys: .standard, ascii: accessible)
        ui.accessible = accessible
        for character in "demo@onthemap.example" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.tab))
        for character in "onthemap" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.phase == .browsing && ui.app.store.locations.count == 6 })
        _ = ui.frame(width: 120, height: 40)
        return ui
    }

    func type(_ text: String, into ui: AppController) {
        for character in text { ui.handle(.key(.character(character))) }
    }

    @Test func thePromptOverTheMapAsCells() async {
        let ui = await loggedIn()
        ui.handle(.key(.character(":")))
        var text = ui.frame(width: 100, height: 30).buffer.text
        #expect(text.contains("Go to: ▏"))
        #expect(text.contains("a city, country, US state or classmate"))
        #expect(text.contains("Enter go") && text.contains("Esc cancel"), "the prompt's keys in the footer")
        type("lis", into: ui)
        ui.handle(.key(.down))
        text = ui.frame(width: 100, height: 30).buffer.text
        assertSnapshot(text, named: "go-to-lis-100x30")
        #expect(text.contains("Lisbon, Portugal"))
    }

    @Test func colonIsInTheFooterAndTheHelp() async {
        let ui = await loggedIn()
        #expect(ui.frame(width: 160, height: 40).buffer.text.contains(": go to"))
        ui.handle(.key(.character("?")))
        #expect(ui.frame(width: 120, height: 50).buffer.text.contains("go to a place or a classmate by name"))
    }

    @Test func lisbonEnterCentresTheMapOnLisbonAtCityLevel() async {
        let ui = await loggedIn()
        ui.handle(.key(.character(":")))
        type("Lisbon", into: ui)
        ui.handle(.key(.enter))
        #expect(ui.app.goTo == nil)
        #expect(abs((ui.map.latitude ?? 0) - 38.72) < 0.3 && abs(ui.map.longitude - -9.13) < 0.3, "\(ui.map)")
        #expect(ui.map.zoom >= 8, "city level, not a country's: \(ui.map.zoom)")
        let text = ui.frame(width: 120, height: 40).buffer.text
        #expect(text.contains("Lisbon"), "its name in view")
        #expect(ui.app.toast?.text.hasPrefix("Went to Lisbon, Portugal") == true)
    }

    /// The same in the graphics map: the prompt over the picture is a hole in it, and Enter
    /// moves the picture's view with the cells', the name still a cell over it.
    @Test func lisbonInTheGraphicsMap() async throws {
        let ui = await loggedIn()
        ui.graphics = true
        ui.handle(.key(.character(":")))
        type("Lisbon", into: ui)
        let prompt = try #require(ui.frame(width: 120, height: 40).pictures.first)
        #expect(prompt.holes.contains(true), "the prompt shows through")
        ui.handle(.key(.enter))
        let frame = ui.frame(width: 120, height: 40)
        let picture = try #require(frame.pictures.first)
        #expect(picture.map == ui.map && picture.map.zoom >= 8)
        #expect(!picture.holes.contains(true) || ui.app.toast != nil)
        #expect(picture.labels.sorted { $0.key < $1.key }.map { String($0.value.character) }.joined().contains("Lisbon"), "the name is a cell")
    }

    @Test func aCountryFitsItsBox() async {
        let ui = await loggedIn()
        ui.handle(.key(.character(":")))
        type("portugal", into: ui)
        ui.handle(.key(.enter))
        #expect(abs((ui.map.latitude ?? 0) - 39.6) < 2 && abs(ui.map.longitude - -8) < 2, "\(ui.map)")
        #expect(ui.map.zoom > 4 && ui.map.zoom < 64, "\(ui.map.zoom)")
    }

    @Test func aClassmateIsSelectedAndShown() async {
        let ui = await loggedIn()
        ui.app.browse.pane = .cards
        ui.handle(.key(.character(":")))
        type("alan tur", into: ui)
        ui.handle(.key(.enter))
        #expect(ui.app.browse.pane == .map)
        #expect(ui.app.selectedRow?.fullName == "Alan Turing")
        #expect(abs((ui.map.latitude ?? 0) - 53.5) < 0.5 && abs(ui.map.longitude - -2.2) < 0.5)
        #expect(ui.frame(width: 120, height: 40).buffer.text.contains("Alan Turing"))
    }

    @Test func escCancelsAndNothingMoves() async {
        let ui = await loggedIn()
        let before = ui.map
        ui.handle(.key(.character(":")))
        type("lisbon", into: ui)
        ui.handle(.key(.escape))
        #expect(ui.app.goTo == nil)
        #expect(ui.map == before)
        // Keys are the main view's again: `q` asks to quit, not types.
        #expect(!ui.frame(width: 120, height: 40).buffer.text.contains("Go to:"))
    }

    @Test func theAccessibleMapSaysWhereItWent() async {
        let ui = await loggedIn(accessible: true)
        ui.app.browse.pane = .map
        ui.handle(.key(.character(":")))
        type("lisbon", into: ui)
        ui.handle(.key(.enter))
        let said = ui.lastAnnouncement ?? ""
        #expect(said.hasPrefix("Went to Lisbon, Portugal"), "\(said)")
        let text = ui.frame(width: 120, height: 40).buffer.text
        #expect(text.contains("Went to Lisbon, Portugal"))
        #expect(text.contains("Map of") && text.contains("Portugal"), "the listing is of the new view")
    }
}
