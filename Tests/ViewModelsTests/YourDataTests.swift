import APIClient
import AppTestSupport
import Foundation
import OnTheMapModels
import Testing

@testable import ViewModels

/// Deleting your own pin and moderation (Docs/Access.md) in the app, with the fake server: what is
/// asked, what is sent, and that the panes change without a download.
@MainActor
struct YourDataTests {
    func downloads(_ api: FakeAPI) async -> Int { await api.calls.filter { $0.hasPrefix("locations") }.count }

    @Test func deletingYourPinAsksFirstThenTakesItOffEveryPaneAtOnce() async throws {
        let api = FakeAPI()
        let app = try #require(await loggedInApp(api: api))
        let before = await downloads(api)
        app.browse.selectedID = "r2"  // someone else's: the delete is about your own newest pin
        app.askToDeleteOwnPin()
        let question = try #require(app.confirmation)
        #expect(question.act == .deletePin(objectId: "r1"))
        #expect(question.question.contains("London, UK") && question.question.hasSuffix("cannot be undone."))
        app.cancelConfirmation()
        #expect(app.confirmation == nil)
        #expect(await api.deletedRows.isEmpty)

        app.askToDeleteOwnPin()
        app.confirm()
        #expect(await eventually { app.toast?.text == "Deleted your pin at London, UK." })
        #expect(await api.deletedRows == ["r1"])
        #expect(!app.store.locations.contains { $0.objectId == "r1" })
        #expect(!app.visibleRows.contains { $0.objectId == "r1" })
        #expect(app.ownPin == nil)
        #expect(await downloads(api) == before, "gone without a download")
        // Nothing left of yours: said so, nothing asked.
        app.askToDeleteOwnPin()
        #expect(app.confirmation == nil)
        #expect(app.toast?.text == "You have no pin on the map to delete.")
    }

    @Test func theSelectedPinIsTheOneDeletedWhenItIsYours() async throws {
        let api = FakeAPI()
        var rows = SampleRows.all
        rows.append(SampleRows.row("r7", "Ada Lovelace", place: "Paris", hoursAgo: 300, key: FakeAPI.accountKey))
        await api.set(rows: rows)
        let app = try #require(await loggedInApp(api: api))
        app.browse.selectedID = "r7"
        app.askToDeleteOwnPin()
        #expect(app.confirmation?.act == .deletePin(objectId: "r7"))
        #expect(app.confirmation?.question.contains("Your 1 other pin stays.") == true)
    }

    @Test func aRefusedDeleteKeepsThePinAndSaysWhyInASentence() async throws {
        let api = FakeAPI()
        let app = try #require(await loggedInApp(api: api))
        await api.set(rowError: .tooManyChanges(retryAfter: 9, message: "Too many changes from this account. Try again in 9 seconds."))
        app.askToDeleteOwnPin()
        app.confirm()
        #expect(await eventually { app.alert != nil })
        #expect(app.alert == "Your pin was not deleted. Too many changes from this account. Try again in 9 seconds.")
        #expect(app.store.locations.contains { $0.objectId == "r1" })
    }

    /// The server sends a demoted moderator `leave` for the hidden rows: the app asks its role
    /// again and stops offering the moderator's keys.
    @Test func aDemotedModeratorLearnsItsRoleFromTheLiveChannel() async throws {
        let api = FakeAPI()
        await api.set(user: PublicUser(key: FakeAPI.accountKey, firstName: "Ada", lastName: "Lovelace", role: "moderator"))
        let app = try #require(await loggedInApp(api: api))
        #expect(await eventually { app.isModerator })
        await api.set(user: PublicUser(key: FakeAPI.accountKey, firstName: "Ada", lastName: "Lovelace", role: "student"))
        let row = try #require(app.store.locations.first { $0.objectId == "r2" })
        app.applyLive(.change(.leave, row))
        #expect(await eventually { !app.isModerator })
        #expect(!app.viewer.mayHide(row))
    }

    @Test func aModeratorHidesWithAReasonAndTheRowStaysMarked() async throws {
        let api = FakeAPI()
        await api.set(user: PublicUser(key: FakeAPI.accountKey, firstName: "Ada", lastName: "Lovelace", role: "moderator"))
        let app = try #require(await loggedInApp(api: api))
        #expect(await eventually { app.isModerator })
        app.browse.selectedID = "r2"
        app.askToHideSelected()
        #expect(app.hidePrompt?.subject == "José Núñez's pin at Madrid, Spain")
        app.submitHide()  // no reason yet
        #expect(app.hidePrompt?.problem != nil)
        #expect(await api.hidden.isEmpty)
        for character in "spam link" { app.typeReason(character) }
        app.deleteReasonBackward()
        app.typeReason("k")
        app.submitHide()
        #expect(app.hidePrompt == nil)
        #expect(await eventually { app.store.locations.first { $0.objectId == "r2" }?.hidden == true })
        #expect(await api.hidden.map(\.reason) == ["spam link"])
        let row = app.store.locations.first { $0.objectId == "r2" }
        #expect(row?.hiddenReason == "spam link")
        #expect(app.visibleRows.contains { $0.objectId == "r2" }, "a moderator keeps seeing it, marked")

        // The same key on a hidden row asks to show it again.
        app.askToHideSelected()
        #expect(app.confirmation?.act == .unhide(objectId: "r2"))
        app.confirm()
        #expect(await eventually { app.store.locations.first { $0.objectId == "r2" }?.hidden == false })
        #expect(await api.unhidden == ["r2"])
    }

    @Test func aReasonStopsAtTwoHundredBytes() async throws {
        let api = FakeAPI()
        await api.set(user: PublicUser(key: FakeAPI.accountKey, firstName: "Ada", lastName: "Lovelace", role: "moderator"))
        let app = try #require(await loggedInApp(api: api))
        #expect(await eventually { app.isModerator })
        app.askToHideSelected()
        for _ in 0..<150 { app.typeReason("é") }  // two bytes each
        #expect(app.hidePrompt?.reason.utf8.count == 200)
        app.cancelHide()
        #expect(app.hidePrompt == nil)
    }

    @Test func aStudentCannotHideAndLogoutForgetsTheRole() async throws {
        let api = FakeAPI()
        let app = try #require(await loggedInApp(api: api))
        app.askToHideSelected()
        #expect(app.hidePrompt == nil && app.confirmation == nil)
        #expect(app.toast?.text == "Only moderators hide rows.")

        let moderatorAPI = FakeAPI()
        await moderatorAPI.set(user: PublicUser(key: "me", firstName: "A", lastName: "B", role: "moderator"))
        let moderator = try #require(await loggedInApp(api: moderatorAPI))
        #expect(await eventually { moderator.isModerator })
        moderator.logOut()
        #expect(await eventually { moderator.phase == .login })
        #expect(!moderator.isModerator)
    }

    @Test func hiddenRowsTheServerSendsAreKeptAndMarked() async throws {
        let api = FakeAPI()
        var rows = SampleRows.all
        rows[0].hidden = true
        rows[0].hiddenReason = "duplicate"
        await api.set(rows: rows)
        let app = try #require(await loggedInApp(api: api))
        #expect(app.visibleRows.first { $0.objectId == "r1" }?.hidden == true)
        #expect(app.store.locations.count == 6)
    }

    @Test func aPostOverTheRowLimitShowsTheServersSentenceAndKeepsTheSession() async throws {
        let limit = "This account already has 5 locations on the map, the most one account may have. Update or delete one of them."
        let api = FakeAPI()
        let app = try #require(await loggedInApp(api: api))
        await api.set(writeError: .notAllowed(message: limit))
        app.openPosting()
        let posting = try #require(app.posting)
        posting.location = "Mountain View"
        posting.link = "a.example"
        posting.findLocation()
        #expect(await eventually { if case .confirm = posting.step { true } else { false } })
        app.pressPostingButton()
        #expect(await eventually { posting.alert != nil })
        #expect(posting.alert?.contains(limit) == true)
        app.dismissAlert()
        #expect(app.phase == .posting)
        #expect(app.session != nil)
    }
}
