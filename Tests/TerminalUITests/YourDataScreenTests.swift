import AppTestSupport
import Foundation
import OnTheMapModels
import Testing
import ViewModels

@testable import TerminalUI

/// Deleting your pin and moderation on screen (Docs/Access.md): the keys, the question and the
/// reason prompt, hidden rows marked in words, and the moderator's key kept from students.
@MainActor
struct YourDataScreenTests {
    static let moderator = PublicUser(key: FakeAPI.accountKey, firstName: "Ada", lastName: "Lovelace", role: "moderator")

    func controller(moderator: Bool, rows: [StudentInformation] = SampleRows.all) async -> AppController? {
        let api = FakeAPI(rows: rows)
        if moderator { await api.set(user: Self.moderator) }
        guard let app = await loggedInApp(api: api) else { return nil }
        if moderator, !(await eventually { app.isModerator }) { return nil }
        return AppController(app: app, ascii: false)
    }

    func text(_ ui: AppController, _ width: Int = 80, _ height: Int = 24) -> String {
        ui.frame(width: width, height: height).buffer.text
    }

    /// r2 hidden by a moderator, as the server sends it to its owner and to moderators.
    static var rowsWithAHiddenOne: [StudentInformation] {
        var rows = SampleRows.all
        rows[1].hidden = true
        rows[1].hiddenReason = "link to a \u{1B}[31mscam"
        return rows
    }

    @Test func dDeletesYourPinAfterTheQuestion() async throws {
        let ui = try #require(await controller(moderator: false))
        ui.handle(.key(.character("2")))
        ui.handle(.key(.character("D")))
        #expect(ui.app.confirmation != nil)
        assertSnapshot(text(ui), named: "delete-pin-question-80x24")
        ui.handle(.key(.character("q")))  // not an answer: the question stays, nothing quits
        #expect(ui.app.confirmation != nil && !ui.app.shouldQuit)
        ui.handle(.key(.escape))
        #expect(ui.app.confirmation == nil)
        #expect(ui.app.store.locations.count == 6)
        ui.handle(.key(.character("D")))
        ui.handle(.key(.character("y")))
        #expect(await eventually { ui.app.store.locations.count == 5 })
        #expect(!text(ui).contains("Ada Lovelace"))
        #expect(text(ui).contains("Deleted your pin at London, UK."))
    }

    @Test func theModeratorKeyIsNotAStudentsKey() async throws {
        let student = try #require(await controller(moderator: false))
        student.handle(.key(.character("2")))
        #expect(!text(student, 160, 48).contains("H hide"))
        student.handle(.key(.character("?")))
        #expect(!text(student, 160, 48).contains("hide / show"))
        student.handle(.key(.escape))
        student.handle(.key(.character("H")))
        #expect(student.app.hidePrompt == nil, "H does nothing for a student")

        let moderator = try #require(await controller(moderator: true))
        moderator.handle(.key(.character("2")))
        #expect(text(moderator, 160, 48).contains("H hide"))
        moderator.handle(.key(.character("?")))
        #expect(text(moderator, 160, 48).contains("hide / show the selected row"))
    }

    @Test func aModeratorTypesAReasonAndTheRowIsMarkedHidden() async throws {
        let ui = try #require(await controller(moderator: true))
        ui.handle(.key(.character("2")))
        ui.handle(.key(.character("j")))  // r2, José
        ui.handle(.key(.character("H")))
        ui.handle(.key(.enter))  // no reason: says so, stays
        #expect(ui.app.hidePrompt?.problem != nil)
        for character in "spam linkx" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.backspace))
        assertSnapshot(text(ui), named: "hide-reason-80x24")
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.store.locations[1].hidden })
        assertSnapshot(text(ui), named: "moderator-table-hidden-row-80x24")
        #expect(text(ui).contains("[hidden] José"))
        // H again on the hidden row asks to show it, y does.
        ui.handle(.key(.character("H")))
        #expect(text(ui).contains("Show again?"))
        ui.handle(.key(.character("y")))
        #expect(await eventually { !ui.app.store.locations[1].hidden })
    }

    @Test func hiddenRowsAreMarkedInWordsOnTheCardsAndTheMapCard() async throws {
        let ui = try #require(await controller(moderator: false, rows: Self.rowsWithAHiddenOne))
        ui.handle(.key(.character("3")))
        let cards = text(ui, 100, 30)
        assertSnapshot(cards, named: "cards-hidden-row-100x30")
        #expect(cards.contains("[hidden] José"))
        #expect(cards.contains("hidden: link to a"), "the reason, cleaned")
        #expect(!cards.contains("\u{1B}"))
        ui.app.browse.selectedID = "r2"
        ui.handle(.key(.character("1")))
        ui.handle(.key(.enter))
        let map = text(ui, 100, 30)
        assertSnapshot(map, named: "map-card-hidden-row-100x30")
        #expect(map.contains("[hidden] José Núñez"))
    }
}
