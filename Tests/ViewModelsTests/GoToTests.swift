import AppTestSupport
import Geo
import OnTheMapModels
import Testing

@testable import ViewModels

/// The "Go to" prompt's state: completions from the class and the gazetteer as you type, Up /
/// Down, Enter (a classmate is selected and shown in the Map pane), Esc.
@MainActor
struct GoToTests {
    @Test func classmatesByNameOrPlaceIgnoringCaseAndAccents() {
        let rows = SampleRows.all
        let jose = GoToPrompt.complete("JOSE nu", rows: rows)
        #expect(jose.first?.title == "José Núñez", "\(jose.map(\.title))")
        #expect(jose.first?.kind == "classmate · Madrid, Spain")
        // Letters in order.
        #expect(GoToPrompt.complete("grc hppr", rows: rows).first?.title == "Grace Hopper")
        // By place: the classmate and the city both offered.
        let manchester = GoToPrompt.complete("manchester", rows: rows).map(\.title)
        #expect(manchester.contains("Alan Turing") && manchester.contains { $0.hasPrefix("Manchester") }, "\(manchester)")
        // A hostile name is offered cleaned of its terminal controls.
        let evil = GoToPrompt.complete("evil", rows: rows)
        #expect(evil.first.map { !$0.title.contains("\u{1B}") && !$0.title.contains("\u{07}") } == true)
        #expect(GoToPrompt.complete("lisbon", rows: rows).first?.title == "Lisbon, Portugal")
        #expect(GoToPrompt.complete("a", rows: rows).count <= GoToPrompt.limit)
    }

    @Test func typingChoosingAndCancelling() async throws {
        let app = try #require(await loggedInApp())
        app.openGoTo()
        for character in "Lis" { app.typeGoTo(character) }
        #expect(app.goTo?.text == "Lis")
        #expect(app.goTo?.completions.contains { $0.title == "Lisbon, Portugal" } == true)
        app.deleteGoToBackward()
        #expect(app.goTo?.text == "Li")
        let first = app.goTo?.choice
        app.chooseGoTo(by: 1)
        #expect(app.goTo?.choice != first)
        app.chooseGoTo(by: -1)
        #expect(app.goTo?.choice == first)
        app.cancelGoTo()
        #expect(app.goTo == nil)
    }

    @Test func enterOnAClassmateSelectsThemInTheMapPane() async throws {
        let app = try #require(await loggedInApp())
        app.browse.pane = .table
        app.editFilter { $0 = "manchester" }
        app.openGoTo()
        for character in "grace" { app.typeGoTo(character) }
        let choice = try #require(app.submitGoTo())
        #expect(choice.title == "Grace Hopper")
        #expect(app.goTo == nil)
        #expect(app.browse.pane == .map)
        #expect(app.browse.selectedID == "r5")
        #expect(app.browse.filter.isEmpty, "the filter that hid her is cleared")
    }

    @Test func loggingOutClosesThePrompt() async throws {
        let app = try #require(await loggedInApp())
        app.openGoTo()
        app.typeGoTo("l")
        app.logOut()
        #expect(await eventually { app.phase == .login })
        #expect(app.goTo == nil)
    }

    @Test func enterWithNothingFoundKeepsThePromptAndSaysSo() async throws {
        let app = try #require(await loggedInApp())
        app.openGoTo()
        for character in "zzqqxx" { app.typeGoTo(character) }
        #expect(app.submitGoTo() == nil)
        #expect(app.goTo != nil)
        #expect(app.toast?.text == "Nothing found by that name.")
    }
}
