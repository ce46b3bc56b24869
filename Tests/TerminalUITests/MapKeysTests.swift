import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

/// The Map pane's orientation keys (`c` centre, `f` fit the shown pins, `F` fit all) and its
/// status line, driven through the whole app.
@MainActor
struct MapKeysTests {
    func loggedIn() async -> AppController {
        let model = AppViewModel(
            api: FakeAPI(), geocoder: FakeGeocoder(),
            opener: LinkOpener(environment: ["BROWSER": "/nonexistent", "PATH": "/nonexistent"]),
            serverName: "127.0.0.1:8080", cache: nil, clock: TestClock.fixed)
        let ui = AppController(app: model, keys: .standard, ascii: false)
        for character in "demo@onthemap.example" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.tab))
        for character in "onthemap" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.phase == .browsing && ui.app.store.locations.count == 6 })
        _ = ui.frame(width: 120, height: 40)
        return ui
    }

    @Test func centreOnTheSelectedPin() async {
        let ui = await loggedIn()
        ui.app.browse.selectedID = "r2"
        ui.handle(.key(.character("+")))
        ui.handle(.key(.character("+")))
        ui.handle(.key(.character("c")))
        #expect(abs((ui.map.latitude ?? 0) - 40.4) < 0.5)
        #expect(abs(ui.map.longitude - -3.7) < 0.5)
        let text = ui.frame(width: 120, height: 40).buffer.text
        #expect(text.contains("José Núñez"), "the selected pin's name beside it")
        #expect(text.contains("km ("), "a scale bar in the status line")
    }

    @Test func aCloseViewWithoutTheDetailedMapSaysSoOnce() async throws {
        let ui = await loggedIn()
        ui.missingDetailedMapNote = "No detailed map data found; showing the built-in map."
        for _ in 0..<4 { ui.handle(.key(.character("+"))) }
        #expect(ui.app.toast == nil, "zoom 16: Natural Earth serves, nothing to say")
        for _ in 0..<4 { ui.handle(.key(.character("+"))) }
        #expect(ui.app.toast?.text == "No detailed map data found; showing the built-in map.")
        #expect(ui.missingDetailedMapNote == nil, "said once a session")
    }

    @Test func fitAllPinsAndTheFilteredOnes() async {
        let ui = await loggedIn()
        ui.handle(.key(.character("+")))
        ui.handle(.key(.character("+")))
        ui.handle(.key(.character("+")))
        ui.handle(.key(.character("F")))
        #expect(ui.frame(width: 120, height: 40).buffer.text.contains("6 of 6 pins here"))
        ui.handle(.key(.character("/")))
        for character in "manchester" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.enter))
        ui.handle(.key(.character("f")))
        #expect(ui.map.zoom >= 16)
        #expect(abs((ui.map.latitude ?? 0) - 53.5) < 0.5)
        ui.handle(.key(.character("F")))
        #expect(ui.map.zoom < 4)
    }
}
