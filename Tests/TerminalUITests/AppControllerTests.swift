import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

/// Drives the whole app with events, as the backend would, and reads the frames.
@MainActor
struct AppControllerTests {
    func controller(
        _ api: FakeAPI = FakeAPI(), geocoder: FakeGeocoder = FakeGeocoder(), cache: LocationCache? = nil,
        browser: String = "/nonexistent/browser", keys: KeyMap = .standard
    ) -> AppController {
        let model = AppViewModel(
            api: api, geocoder: geocoder,
            opener: LinkOpener(environment: ["BROWSER": browser, "PATH": "/nonexistent"]),
            serverName: "127.0.0.1:8080", cache: cache, clock: TestClock.fixed)
        return AppController(app: model, keys: keys, ascii: false)
    }

    func type(_ ui: AppController, _ text: String) {
        for character in text { ui.handle(.key(.character(character))) }
    }

    func logIn(_ ui: AppController) async {
        type(ui, "demo@onthemap.example")
        ui.handle(.key(.tab))
        type(ui, "onthemap")
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.phase == .browsing && ui.app.store.locations.count == 6 })
    }

    @Test func emptyLoginIsRefusedWithoutLeavingTheScreen() async {
        let ui = controller()
        ui.handle(.key(.tab))
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.login.flashedField == .email })
        #expect(ui.app.phase == .login)
    }

    @Test func loginThenPanesFilterAndLogout() async {
        let ui = controller()
        await logIn(ui)
        #expect(ui.frame(width: 80, height: 24).buffer.text.contains("6 pins"))
        ui.handle(.key(.character("2")))
        #expect(ui.app.browse.pane == .table)
        #expect(ui.app.browse.selectedID == "r1")
        ui.handle(.key(.character("j")))
        #expect(ui.app.browse.selectedID == "r2")
        ui.handle(.key(.character("/")))
        type(ui, "manchester")
        ui.handle(.key(.enter))
        #expect(ui.app.visibleRows.map(\.objectId) == ["r6"])
        #expect(ui.app.browse.selectedID == "r6")
        #expect(ui.frame(width: 80, height: 24).buffer.text.contains("1 of 6 match"))
        ui.handle(.key(.escape))
        #expect(ui.app.visibleRows.count == 6)
        ui.handle(.key(.backTab))
        #expect(ui.app.browse.pane == .map)
        ui.handle(.key(.character("L")))
        #expect(await eventually { ui.app.phase == .login })
        #expect(ui.app.store.locations.isEmpty)
    }

    @Test func unsafeLinksNeverReachTheOpenerAndMissingOpenerShowsTheLink() async {
        let ui = controller()
        await logIn(ui)
        ui.handle(.key(.character("2")))
        for _ in 0..<3 { ui.handle(.key(.character("j"))) }
        #expect(ui.app.browse.selectedID == "r4")
        ui.handle(.key(.enter))
        #expect(ui.frame(width: 100, height: 30).buffer.text.contains("only http and https"))
        #expect(ui.app.unopenedLinks.isEmpty)
        ui.handle(.key(.character("g")))
        ui.handle(.key(.enter))
        #expect(ui.app.unopenedLinks == ["https://ada.example"])
        #expect(ui.frame(width: 100, height: 30).buffer.text.contains("https://ada.example"))
    }

    @Test func mouseClicksTabsAndRows() async {
        let ui = controller()
        await logIn(ui)
        _ = ui.frame(width: 80, height: 24)
        ui.lastFrame = ui.frame(width: 80, height: 24)
        ui.handle(.mouse(.click, x: 11, y: 1))
        #expect(ui.app.browse.pane == .table)
        ui.lastFrame = ui.frame(width: 80, height: 24)
        ui.handle(.mouse(.click, x: 10, y: 6))
        #expect(ui.app.browse.selectedID == "r3")
    }

    @Test func postingFromTheKeyboard() async {
        let ui = controller()
        await logIn(ui)
        ui.handle(.key(.character("p")))
        #expect(ui.app.posting != nil)
        type(ui, "Mountain View")
        ui.handle(.key(.enter))
        type(ui, "github.com/ada")
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.posting?.chosen != nil })
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.posting == nil })
        #expect(ui.frame(width: 80, height: 24).buffer.text.contains("Your location is posted"))
        ui.handle(.key(.character("p")))
        ui.handle(.key(.escape))
        #expect(ui.app.posting == nil)
    }

    func footer(_ ui: AppController) -> String {
        String(ui.frame(width: 100, height: 30).buffer.text.split(separator: "\n").last ?? "")
    }

    /// In the preview Esc steps back to the fields, and the footer says so (`Esc back`); on the
    /// fields it closes the form (`Esc cancel`).
    @Test func escInThePreviewStepsBackAndTheFooterSaysSo() async {
        let ui = controller()
        await logIn(ui)
        ui.handle(.key(.character("p")))
        #expect(footer(ui).contains("Esc cancel") && !footer(ui).contains("Esc back"))
        type(ui, "Mountain View")
        ui.handle(.key(.enter))
        type(ui, "github.com/ada")
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.posting?.chosen != nil })
        #expect(footer(ui).contains("Esc back") && !footer(ui).contains("Esc cancel"), "\(footer(ui))")
        ui.handle(.key(.escape))
        #expect(ui.app.posting?.step == .enter)
        #expect(ui.app.posting?.location == "Mountain View")
        #expect(footer(ui).contains("Esc cancel"))
        ui.handle(.key(.escape))
        #expect(ui.app.posting == nil)
    }

    /// Sign-up mode's footer: Enter signs up, Ctrl-S goes back to logging in; typing still fills
    /// the fields.
    @Test func theSignUpFootersWordsAreSignUpAndLogIn() async {
        let ui = controller()
        #expect(footer(ui).contains("Enter log in") && footer(ui).contains("Ctrl-S sign up"))
        ui.handle(.key(.control("s")))
        #expect(ui.app.login.mode == .signUp)
        let signUp = footer(ui)
        #expect(signUp.contains("Enter sign up") && signUp.contains("Ctrl-S log in"), "\(signUp)")
        #expect(!signUp.contains("Enter log in") && !signUp.contains("Ctrl-S sign up"))
        type(ui, "ada")
        #expect(ui.frame(width: 100, height: 30).buffer.text.contains("ada"))
        ui.handle(.key(.control("s")))
        #expect(ui.app.login.mode == .logIn)
        #expect(footer(ui).contains("Enter log in"))
    }

    /// `s` sorts the Table and the Cards; the Map pane does not offer it (nothing there would
    /// change), in its help or by the key.
    @Test func sortIsOfferedWhereItShows() async {
        let ui = controller()
        await logIn(ui)
        #expect(ui.app.browse.pane == .map)
        let sort = ui.app.browse.sort
        ui.handle(.key(.character("s")))
        #expect(ui.app.browse.sort == sort)
        ui.handle(.key(.character("?")))
        #expect(!ui.frame(width: 100, height: 40).buffer.text.contains("sort:"))
        ui.handle(.key(.escape))
        for pane in ["2", "3"] {
            ui.handle(.key(.character(Character(pane))))
            let before = ui.app.browse.sort
            ui.handle(.key(.character("s")))
            #expect(ui.app.browse.sort != before)
            ui.handle(.key(.character("?")))
            #expect(ui.frame(width: 100, height: 40).buffer.text.contains("sort: newest, name, distance, country"))
            ui.handle(.key(.escape))
        }
    }

    @Test func quittingWhileThePlaceIsLookedUpAsksOverTheForm() async {
        let ui = controller(geocoder: FakeGeocoder(delay: .seconds(60)))
        await logIn(ui)
        ui.handle(.key(.character("p")))
        type(ui, "Mountain View")
        ui.handle(.key(.enter))
        type(ui, "github.com/ada")
        ui.handle(.key(.enter))
        #expect(ui.app.posting?.isWorking == true)
        ui.handle(.key(.character("q")))
        #expect(!ui.app.shouldQuit)
        #expect(ui.frame(width: 80, height: 24).buffer.text.contains("anyway? (y / n)"))
        ui.handle(.key(.character("n")))
        #expect(!ui.frame(width: 80, height: 24).buffer.text.contains("Quit anyway?"))
        ui.handle(.key(.character("q")))
        ui.handle(.key(.character("y")))
        #expect(ui.app.shouldQuit)
        ui.handle(.key(.escape))
    }

    @Test func tinyTerminalGetsTheTooSmallScreen() {
        #expect(controller().frame(width: 30, height: 8).buffer.text.contains("Terminal too small"))
    }

    @Test func unreachableServerOffersTheCachedCopyOffline() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "otm-offline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = LocationCache(fileURL: directory.appendingPathComponent("c.json"))
        cache.save(SampleRows.all, at: TestClock.start.addingTimeInterval(-3 * 3600))
        let ui = controller(FakeAPI(login: .failure(.cannotReachServer(server: "127.0.0.1:9"))), cache: cache)
        type(ui, "a@b.c")
        ui.handle(.key(.tab))
        type(ui, "pw")
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.login.alert?.contains("Press o to browse the copy saved 3 h ago") == true })
        ui.handle(.key(.character("o")))
        #expect(ui.app.phase == .browsing)
        #expect(ui.app.store.isOffline)
        #expect(ui.frame(width: 100, height: 30).buffer.text.contains("6 locations · offline · data from 3 h ago"))
        ui.handle(.key(.character("p")))
        #expect(ui.app.posting == nil)
        ui.handle(.key(.character("L")))
        #expect(await eventually { ui.app.phase == .login })
    }
}
