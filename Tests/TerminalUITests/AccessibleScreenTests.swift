import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

/// Accessible mode on every screen: the cursor on the selected row, field or button; no
/// Braille or box drawing; what colour and marks show also said in text.
@MainActor
struct AccessibleScreenTests {
    func app() -> AppController {
        let model = AppViewModel(
            api: FakeAPI(), geocoder: FakeGeocoder(),
            opener: LinkOpener(environment: ["BROWSER": "/nonexistent", "PATH": "/nonexistent"]),
            serverName: "127.0.0.1:8080", cache: nil, clock: TestClock.fixed)
        let ui = AppController(app: model, keys: .standard, ascii: true)
        ui.accessible = true
        return ui
    }

    func frame(_ ui: AppController) -> Frame {
        let frame = ui.frame(width: 120, height: 40)
        #expect(AccessibleMapTests.noise(frame.buffer.text).isEmpty, "no Braille or box drawing")
        return frame
    }

    /// The text of the line the cursor is on, from the cursor on.
    func underCursor(_ frame: Frame) -> String {
        guard let cursor = frame.cursor else { return "" }
        let line = frame.buffer.text.split(separator: "\n", omittingEmptySubsequences: false)[cursor.y]
        return String(line.dropFirst(cursor.x))
    }

    func logIn(_ ui: AppController) async {
        for character in "demo@onthemap.example" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.tab))
        for character in "onthemap" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.phase == .browsing && ui.app.store.locations.count == 6 })
    }

    @Test func theCursorFollowsTheLoginForm() {
        let ui = app()
        let empty = frame(ui)
        for character in "ab" { ui.handle(.key(.character(character))) }
        let typed = frame(ui)
        #expect(typed.cursor?.y == empty.cursor?.y && typed.cursor?.x == (empty.cursor?.x ?? 0) + 2, "after the text")
        ui.handle(.key(.tab))
        let password = frame(ui)
        #expect(password.cursor.map { $0.y > (typed.cursor?.y ?? 0) } == true, "on the next field")
        ui.handle(.key(.tab))
        #expect(underCursor(frame(ui)).hasPrefix("[ Log"), "on the focused button")
    }

    @Test func afterLogOutTheCursorIsOnThePasswordField() async {
        let ui = app()
        await logIn(ui)
        ui.handle(.key(.character("2")))
        _ = frame(ui)
        ui.handle(.key(.character("L")))
        #expect(await eventually { ui.app.phase == .login })
        let login = frame(ui)
        #expect(underCursor(login).isEmpty || login.cursor != nil)
        let line = login.buffer.text.split(separator: "\n", omittingEmptySubsequences: false)[login.cursor?.y ?? 0]
        #expect(line.contains("Password"), "\(String(describing: login.cursor)) \(line)")
    }

    @Test func theCursorIsOnTheSelectedRowOfTheTableAndTheCards() async {
        let ui = app()
        await logIn(ui)
        ui.handle(.key(.character("2")))
        var table = frame(ui)
        let first = ui.app.selectedRow.map { $0.firstName } ?? "?"
        #expect(underCursor(table).contains(first))
        ui.handle(.key(.character("j")))
        let next = frame(ui)
        #expect(next.cursor?.y == (table.cursor?.y ?? 0) + 1)
        #expect(underCursor(next).contains(ui.app.selectedRow?.firstName ?? "?"))
        table = next
        ui.handle(.key(.character("3")))
        let cards = frame(ui)
        #expect(underCursor(cards).contains(ui.app.selectedRow?.firstName ?? "?"), "on the selected card's name")
    }

    @Test func theCursorIsOnTheAlertsButtonAndTheHelpBox() async {
        let ui = app()
        await logIn(ui)
        ui.handle(.key(.character("?")))
        #expect(underCursor(frame(ui)).hasPrefix("Keys"))
        ui.handle(.key(.escape))
        ui.app.alert = "The server could not be reached."
        let alert = frame(ui)
        #expect(underCursor(alert).hasPrefix("[ OK ]"))
        #expect(alert.buffer.text.contains("The server could not be reached."))
    }

    @Test func theCursorFollowsThePostingForm() async {
        let ui = app()
        await logIn(ui)
        ui.handle(.key(.character("p")))
        let empty = frame(ui)
        for character in "Paris" { ui.handle(.key(.character(character))) }
        let typed = frame(ui)
        #expect(typed.cursor?.x == (empty.cursor?.x ?? 0) + 5 && typed.cursor?.y == empty.cursor?.y)
        #expect(typed.buffer.text.contains("Paris"))
    }

    @Test func whatColourShowsIsAlsoSaidInText() async {
        let ui = app()
        await logIn(ui)
        ui.handle(.key(.character("2")))
        let table = frame(ui).buffer.text
        // Your own row (a yellow dot), the selection (reverse video), recency (green, yellow).
        #expect(table.contains("Ada Lovelace (you)"))
        #expect(
            table.split(separator: "\n").contains {
                $0.contains(">") && $0.contains(ui.app.selectedRow?.firstName ?? "?")
            })
        #expect(table.contains("30 min ago") && table.contains("3 h ago"))
        ui.handle(.key(.character("3")))
        #expect(frame(ui).buffer.text.contains("Ada Lovelace (you)"))
        ui.handle(.key(.character("1")))
        #expect(frame(ui).buffer.text.contains("your pin"))
    }

    @Test func aToastStaysOnALineAfterItIsTakenDown() async {
        for accessible in [true, false] {
            let clock = TestClock()
            let model = AppViewModel(
                api: FakeAPI(), geocoder: FakeGeocoder(), opener: LinkOpener(environment: [:]),
                serverName: "127.0.0.1:8080", cache: nil, clock: clock.read)
            let ui = AppController(app: model, keys: .standard, ascii: true)
            ui.accessible = accessible
            await logIn(ui)
            ui.handle(.key(.character("2")))
            model.show(toast: "Server said hello")
            ui.handle(.key(.character("j")))
            #expect(ui.frame(width: 120, height: 40).buffer.text.contains("Server said hello"))
            clock.advance(seconds: 10)
            model.tick()
            #expect(model.toast == nil)
            let after = ui.frame(width: 120, height: 40).buffer.text
            #expect(after.contains("Last notice: Server said hello") == accessible, "accessible: \(accessible)")
            // A map action's sentence replaces it, and the old toast does not come back.
            ui.handle(.key(.character("1")))
            ui.handle(.key(.character("+")))
            #expect(accessible ? ui.lastAnnouncement?.hasPrefix("Zoomed in to") == true : ui.lastAnnouncement == nil)
        }
    }

    @Test func aRefusedFieldIsSaidNotOnlyFlashedRed() async {
        let ui = app()
        ui.handle(.key(.tab))
        ui.handle(.key(.tab))
        ui.handle(.key(.enter))  // [ Log In ] with both fields empty
        #expect(await eventually { ui.app.login.flashedField != nil })
        #expect(frame(ui).buffer.text.contains("Email is required."))
    }

    @Test func thePostingPreviewSaysWhereThePinIs() async {
        let ui = app()
        await logIn(ui)
        ui.handle(.key(.character("p")))
        for character in "Mountain View" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.enter))
        for character in "example.com" { ui.handle(.key(.character(character))) }
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.posting?.chosen != nil })
        let preview = frame(ui)
        #expect(preview.buffer.text.contains("The pin: "), "\(preview.buffer.text)")
        #expect(!preview.buffer.text.contains(":::"), "no drawn map")
    }

    @Test func noSpinnerTurnsInAccessibleMode() async {
        let clock = TestClock()
        let model = AppViewModel(
            api: FakeAPI(), geocoder: FakeGeocoder(), opener: LinkOpener(environment: [:]),
            serverName: "127.0.0.1:8080", cache: nil, clock: clock.read)
        let ui = AppController(app: model, keys: .standard, ascii: true)
        ui.accessible = true
        #expect(ui.milliseconds == 0)
        clock.advance(seconds: 0.5)
        #expect(ui.milliseconds == 0, "the spinners' clock stands still")
        ui.accessible = false
        #expect(ui.milliseconds == 500)
    }

    @Test func theDefaultModeMarksNothingInWordsAndHidesTheCursor() async {
        let ui = app()
        ui.accessible = false
        await logIn(ui)
        ui.handle(.key(.character("2")))
        let table = ui.frame(width: 120, height: 40).buffer.text
        #expect(!table.contains("(you)"))
    }
}
