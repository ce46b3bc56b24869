import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

/// Drives the whole app with events, as the backend would, and reads the frames.
@MainActor
struct AppControllerTests {
    func app(_ api: FakeAPI = FakeAPI(), browser: String = "/nonexistent/browser") -> AppController {
        AppController(
            api: api, geocoder: FakeGeocoder(),
            opener: LinkOpener(environment: ["BROWSER": browser, "PATH": "/nonexistent"]),
            serverName: "127.0.0.1:8080", hint: nil, cache: nil, ascii: false, clock: TestClock.fixed)
    }

    func type(_ app: AppController, _ text: String) {
        for character in text { app.handle(.key(.character(character))) }
    }

    func logIn(_ app: AppController) async {
        type(app, "demo@onthemap.example")
        app.handle(.key(.tab))
        type(app, "onthemap")
        app.handle(.key(.enter))
        #expect(await eventually { app.phase == .main && app.store.locations.count == 6 })
    }

    @Test func emptyLoginIsRefusedWithoutLeavingTheScreen() async {
        let app = app()
        app.handle(.key(.tab))
        app.handle(.key(.enter))
        #expect(await eventually { app.login.flashedField == .email })
        #expect(app.phase == .login)
    }

    @Test func loginThenPanesFilterAndLogout() async {
        let app = app()
        await logIn(app)
        #expect(app.frame(width: 80, height: 24).buffer.text.contains("6 pins"))
        app.handle(.key(.character("2")))
        #expect(app.browse.pane == .table)
        #expect(app.browse.selectedID == "r1")
        app.handle(.key(.character("j")))
        #expect(app.browse.selectedID == "r2")
        app.handle(.key(.character("/")))
        type(app, "manchester")
        app.handle(.key(.enter))
        #expect(app.visibleRows.map(\.objectId) == ["r6"])
        #expect(app.browse.selectedID == "r6")
        #expect(app.frame(width: 80, height: 24).buffer.text.contains("1 of 6 match"))
        app.handle(.key(.escape))
        #expect(app.visibleRows.count == 6)
        app.handle(.key(.backTab))
        #expect(app.browse.pane == .map)
        app.handle(.key(.character("L")))
        #expect(await eventually { app.phase == .login })
        #expect(app.store.locations.isEmpty)
    }

    @Test func unsafeLinksNeverReachTheOpenerAndMissingOpenerShowsTheLink() async {
        let app = app()
        await logIn(app)
        app.handle(.key(.character("2")))
        for _ in 0..<3 { app.handle(.key(.character("j"))) }
        #expect(app.browse.selectedID == "r4")
        app.handle(.key(.enter))
        #expect(app.frame(width: 100, height: 30).buffer.text.contains("only http and https"))
        #expect(app.unopenedLinks.isEmpty)
        app.handle(.key(.character("g")))
        app.handle(.key(.enter))
        #expect(app.unopenedLinks == ["https://ada.example"])
        #expect(app.frame(width: 100, height: 30).buffer.text.contains("https://ada.example"))
    }

    @Test func mouseClicksTabsAndRows() async {
        let app = app()
        await logIn(app)
        _ = app.frame(width: 80, height: 24)
        app.lastFrame = app.frame(width: 80, height: 24)
        app.handle(.mouse(.click, x: 11, y: 1))
        #expect(app.browse.pane == .table)
        app.lastFrame = app.frame(width: 80, height: 24)
        app.handle(.mouse(.click, x: 10, y: 6))
        #expect(app.browse.selectedID == "r3")
    }

    @Test func postingFromTheKeyboardAndQuitAsksWhileInFlight() async {
        let app = app()
        await logIn(app)
        app.handle(.key(.character("p")))
        #expect(app.posting != nil)
        type(app, "Mountain View")
        app.handle(.key(.enter))
        type(app, "github.com/ada")
        app.handle(.key(.enter))
        #expect(await eventually { app.posting?.chosen != nil })
        app.handle(.key(.enter))
        #expect(await eventually { app.posting == nil })
        #expect(app.frame(width: 80, height: 24).buffer.text.contains("Your location is posted"))
        app.handle(.key(.character("p")))
        app.handle(.key(.escape))
        #expect(app.posting == nil)
    }

    @Test func tinyTerminalGetsTheTooSmallScreen() {
        #expect(app().frame(width: 30, height: 8).buffer.text.contains("Terminal too small"))
    }

    @Test func unreachableServerOffersTheCachedCopyOffline() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "otm-offline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = LocationCache(fileURL: directory.appendingPathComponent("c.json"))
        cache.save(SampleRows.all, at: TestClock.start.addingTimeInterval(-3 * 3600))
        let app = AppController(
            api: FakeAPI(login: .failure(.cannotReachServer(server: "127.0.0.1:9"))), geocoder: FakeGeocoder(),
            opener: LinkOpener(environment: [:]), serverName: "127.0.0.1:9", hint: nil, cache: cache, ascii: false,
            clock: TestClock.fixed)
        type(app, "a@b.c")
        app.handle(.key(.tab))
        type(app, "pw")
        app.handle(.key(.enter))
        #expect(await eventually { app.login.alert?.contains("Press o to browse the copy saved 3 h ago") == true })
        app.handle(.key(.character("o")))
        #expect(app.phase == .main)
        #expect(app.store.isOffline)
        #expect(app.frame(width: 100, height: 30).buffer.text.contains("6 locations · offline · data from 3 h ago"))
        app.handle(.key(.character("p")))
        #expect(app.posting == nil)
        app.handle(.key(.character("L")))
        #expect(await eventually { app.phase == .login })
    }
}
