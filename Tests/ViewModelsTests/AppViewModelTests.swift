import APIClient
import AppTestSupport
import Foundation
import Testing

@testable import ViewModels

/// The app-level state machine with a fake server and geocoder: no terminal involved.
@MainActor
struct AppViewModelTests {
    func model(
        _ api: FakeAPI = FakeAPI(), geocoder: FakeGeocoder = FakeGeocoder(), cache: LocationCache? = nil
    )
        -> AppViewModel
    {
        AppViewModel(
            api: api, geocoder: geocoder, opener: LinkOpener(environment: ["BROWSER": "/nonexistent", "PATH": "/no"]),
            serverName: "127.0.0.1:8080", cache: cache, clock: TestClock.fixed)
    }

    func logIn(_ app: AppViewModel) async {
        app.login.email = "demo@onthemap.example"
        app.login.password = "onthemap"
        app.submitLogin()
        #expect(await eventually { app.phase == .browsing && app.refreshing == nil && !app.store.locations.isEmpty })
    }

    func temporaryCache() -> LocationCache {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("otm-app-\(UUID().uuidString)")
        return LocationCache(fileURL: directory.appendingPathComponent("c.json"))
    }

    @Test func logInBrowsePostAndLogOut() async {
        let api = FakeAPI()
        let app = model(api)
        #expect(app.phase == .login)
        await logIn(app)
        #expect(app.session?.accountKey == FakeAPI.accountKey)
        #expect(app.store.locations.count == 6)
        #expect(app.browse.selectedID == "r1")

        app.openPosting()
        #expect(app.phase == .posting)
        let posting = app.posting
        #expect(posting != nil)
        posting?.location = "Mountain View"
        app.pressPostingButton()  // Location → Link
        posting?.link = "github.com/ada"
        app.pressPostingButton()  // Find Location
        #expect(await eventually { posting?.chosen != nil })
        app.choosePlace(by: 5)
        #expect(posting?.choice == 1)
        app.choosePlace(by: -1)
        app.pressPostingButton()  // Finish
        #expect(await eventually { app.phase == .browsing && app.refreshing == nil && app.store.locations.count == 7 })
        #expect(app.posting == nil)
        #expect(app.toast?.text == "Your location is posted")
        #expect(app.browse.selectedID == "new1")
        #expect(await api.created.first?.mapString == "Mountain View")

        app.logOut()
        #expect(await eventually { app.phase == .login })
        #expect(app.session == nil)
        #expect(app.store.locations.isEmpty)
        #expect(app.login.password.isEmpty)
        #expect(await api.calls.contains("logOut"))
    }

    /// Nothing answered, or something that is not an HTTP server did: either way no server is
    /// there to log in to, and the saved copy is offered.
    @Test(arguments: [
        APIError.cannotReachServer(server: "127.0.0.1:9"),
        APIError.malformedAnswer(server: "127.0.0.1:9", detail: "a TLS answer: the server speaks https://"),
    ])
    func unreachableServerOffersTheCacheAndBrowsesItOffline(failure: APIError) async {
        let cache = temporaryCache()
        defer { try? FileManager.default.removeItem(at: cache.fileURL.deletingLastPathComponent()) }
        cache.save(SampleRows.all, at: TestClock.start.addingTimeInterval(-3 * 3600))
        let app = model(FakeAPI(login: .failure(failure)), cache: cache)
        app.login.email = "a@b.c"
        app.login.password = "pw"
        app.submitLogin()
        #expect(await eventually { app.offersOffline })
        #expect(app.login.alert?.contains("127.0.0.1:9") == true)
        #expect(app.login.alert?.hasSuffix("Press o to browse the copy saved 3 h ago, offline.") == true)
        app.browseOffline()
        #expect(app.phase == .browsing)
        #expect(app.session == nil)
        #expect(app.store.isOffline)
        #expect(app.store.locations.count == 6)
        #expect(app.login.alert == nil)
        app.openPosting()
        #expect(app.phase == .browsing)
        #expect(app.toast?.text.hasPrefix("Log in to post") == true)
    }

    @Test func withoutACacheNothingIsOffered() async {
        let app = model(FakeAPI(login: .failure(.cannotReachServer(server: "127.0.0.1:9"))), cache: temporaryCache())
        app.login.email = "a@b.c"
        app.login.password = "pw"
        app.submitLogin()
        #expect(await eventually { app.login.alert != nil && !app.login.isBusy })
        #expect(!app.offersOffline)
        app.browseOffline()
        #expect(app.phase == .login)
    }

    @Test func aFailedRefreshKeepsTheRowsAndSaysSoInAToast() async {
        let api = FakeAPI()
        let app = model(api)
        await logIn(app)
        await api.set(locationsError: .cannotReachServer(server: "127.0.0.1:8080"))
        app.refresh()
        #expect(app.refreshing != nil)
        app.refresh()  // a second press while the first is out sends nothing more
        #expect(await eventually { app.refreshing == nil })
        #expect(await api.calls.filter { $0.hasPrefix("locations") }.count == 2)
        #expect(app.store.locations.count == 6)
        #expect(app.alert == nil)
        #expect(app.toast?.text.hasPrefix("Offline: Cannot reach the server at 127.0.0.1:8080") == true)
    }

    @Test func aFailedFirstDownloadIsAnAlert() async {
        let api = FakeAPI()
        await api.set(locationsError: .serverError(status: 500, message: "Database unavailable."))
        let app = model(api)
        app.login.email = "demo@onthemap.example"
        app.login.password = "onthemap"
        app.submitLogin()
        #expect(await eventually { app.phase == .browsing && app.alert != nil })
        #expect(app.alert == APIError.serverError(status: 500, message: "Database unavailable.").userMessage)
        #expect(app.hasAlert)
        app.dismissAlert()
        #expect(!app.hasAlert)
    }

    @Test func quittingWhilePostingAsksFirst() async {
        let app = model(geocoder: FakeGeocoder(delay: .seconds(60)))
        await logIn(app)
        let idle = model()
        idle.quit()
        #expect(idle.shouldQuit)

        app.openPosting()
        app.posting?.location = "Mountain View"
        app.posting?.link = "https://a.example"
        app.posting?.findLocation()
        #expect(app.posting?.isWorking == true)
        app.quit()
        #expect(!app.shouldQuit)
        #expect(app.quitQuestion?.contains("Quit anyway?") == true)
        app.cancelQuit()
        #expect(app.quitQuestion == nil)
        app.quit()
        app.quitNow()
        #expect(app.shouldQuit)
        app.cancelPosting()
    }

    @Test func aRefusedLogOutIsReportedAndForgottenAnyway() async {
        let api = FakeAPI()
        let app = model(api)
        await logIn(app)
        await api.set(logOutError: .cannotReachServer(server: "127.0.0.1:8080"))
        app.logOut()
        #expect(await eventually { app.phase == .login })
        #expect(app.session == nil)
        #expect(app.toast?.text.hasPrefix("Logged out here; the server said: Cannot reach") == true)
    }

    @Test func toastsTakeThemselvesDown() {
        let clock = TestClock()
        let app = AppViewModel(
            api: FakeAPI(), geocoder: FakeGeocoder(), opener: LinkOpener(environment: [:]), serverName: "s",
            clock: clock.read)
        app.show(toast: "Hello", seconds: 4)
        app.tick()
        #expect(app.toast?.text == "Hello")
        clock.advance(seconds: 5)
        app.tick()
        #expect(app.toast == nil)
    }
}
