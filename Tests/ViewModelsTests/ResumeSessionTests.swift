import APIClient
import AppTestSupport
import Foundation
import OnTheMapModels
import Testing

@testable import ViewModels

/// A session kept by `onthemap login`: the app browses at once, and goes back to the login form
/// when the server no longer accepts it.
@MainActor
struct ResumeSessionTests {
    let stored = UserSession(accountKey: FakeAPI.accountKey, sessionID: "kept", expiration: "2099-01-01T00:00:00.000Z")

    func model(_ api: FakeAPI) -> AppViewModel {
        AppViewModel(
            api: api, geocoder: FakeGeocoder(), opener: LinkOpener(environment: [:]), serverName: "s", clock: TestClock.fixed)
    }

    @Test func aLiveSessionSkipsTheLoginForm() async {
        let api = FakeAPI()
        await api.set(
            user: PublicUser(
                key: FakeAPI.accountKey, firstName: "Ada", lastName: "Lovelace",
                email: .init(address: "ada@example.com", verified: true)))
        let app = model(api)
        app.resume(stored, expectsEmail: true)
        #expect(app.phase == .browsing)
        await app.sessionCheck?.value
        #expect(await api.calls.contains("publicUser me"))
        #expect(app.phase == .browsing && app.session == stored && app.login.alert == nil)
        #expect(await eventually { app.refreshing == nil && app.ownPin != nil })
    }

    @Test func aSessionTheServerNoLongerKnowsFallsBackToTheLoginForm() async {
        let app = model(FakeAPI())  // its user has no email: the server did not recognise the session
        app.resume(stored, expectsEmail: true)
        await app.sessionCheck?.value
        #expect(app.phase == .login)
        #expect(app.session == nil)
        #expect(app.login.alert == "Your saved session has ended. Log in again.")
    }

    @Test func withoutTheEmailCheckOnlyARefusalCounts() async {
        let api = FakeAPI()
        let app = model(api)
        app.resume(stored, expectsEmail: false)
        await app.sessionCheck?.value
        #expect(await api.calls.contains("publicUser me"))
        #expect(app.phase == .browsing)
    }

    @Test func aPostRefusedFor401EndsTheSessionWhenTheAlertCloses() async {
        let api = FakeAPI()
        await api.set(writeError: .refused(status: 401, message: "session expired"))
        let app = model(api)
        app.resume(stored, expectsEmail: false)
        await app.sessionCheck?.value
        app.openPosting()
        guard let posting = app.posting else { Issue.record("no posting form"); return }
        posting.location = "Mountain View"
        posting.link = "a.example"
        posting.findLocation()
        #expect(await eventually { if case .confirm = posting.step { true } else { false } })
        app.pressPostingButton()
        #expect(await eventually { posting.alert != nil })
        #expect(app.phase == .posting)
        app.dismissAlert()
        #expect(app.phase == .login)
        #expect(app.login.alert == "Your saved session has ended. Log in again.")
    }
}
