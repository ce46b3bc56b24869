import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

@MainActor
struct ScreenSnapshotTests {
    static let sizes = [(80, 24), (160, 48)]

    func mainModel(
        pane: Pane, filter: String = "", help: Bool = false, alert: String? = nil, annotation: Bool = false
    )
        -> MainModel
    {
        var browse = BrowseState()
        browse.pane = pane
        browse.filter = filter
        let rows = browse.visible(SampleRows.all)
        browse.selectedID = rows.dropFirst().first?.objectId ?? rows.first?.objectId
        return MainModel(
            rows: rows, totalCount: SampleRows.all.count, browse: browse, status: "6 locations · updated 2 min ago",
            server: "127.0.0.1:8080", accountKey: "me", now: TestClock.start, annotationOpen: annotation,
            helpOpen: help,
            alert: alert)
    }

    @Test func login() {
        for (width, height) in Self.sizes {
            let model = LoginViewModel(
                api: FakeAPI(), hint: "Built-in demo server · log in with demo@onthemap.example / onthemap")
            model.email = "demo@onthemap.example"
            model.password = "secret"
            assertSnapshot(
                LoginScreen.render(model, width: width, height: height, milliseconds: 0).buffer.text,
                named: "login-\(width)x\(height)")
        }
    }

    @Test func loginAlerts() async {
        let model = LoginViewModel(api: FakeAPI(login: .failure(.cannotReachServer(server: "127.0.0.1:9"))))
        model.email = "a@b.c"
        model.password = "x"
        _ = await model.submit()
        assertSnapshot(
            LoginScreen.render(model, width: 80, height: 24, milliseconds: 0).buffer.text,
            named: "login-alert-unreachable-80x24")
        let wrong = LoginViewModel(api: FakeAPI(login: .failure(.invalidCredentials(message: ""))))
        wrong.email = "a@b.c"
        wrong.password = "x"
        _ = await wrong.submit()
        assertSnapshot(
            LoginScreen.render(wrong, width: 160, height: 48, milliseconds: 0).buffer.text,
            named: "login-alert-credentials-160x48")
    }

    @Test func panes() {
        for (width, height) in Self.sizes {
            for pane in Pane.allCases {
                let frame = MainScreen.render(mainModel(pane: pane), width: width, height: height)
                // The table's selection is a matter of style: keep that layer too.
                assertSnapshot(
                    frame.buffer.text, styles: pane == .table ? frame.buffer.styleText : nil,
                    named: "\(pane.title.lowercased())-\(width)x\(height)")
            }
            assertSnapshot(
                MainScreen.render(mainModel(pane: .table, help: true), width: width, height: height).buffer.text,
                named: "help-\(width)x\(height)")
            assertSnapshot(
                MainScreen.render(mainModel(pane: .cards, filter: "UK"), width: width, height: height).buffer.text,
                named: "filter-\(width)x\(height)")
            assertSnapshot(
                MainScreen.render(mainModel(pane: .map, annotation: true), width: width, height: height).buffer.text,
                named: "map-annotation-\(width)x\(height)")
            let alert = MainScreen.render(
                mainModel(
                    pane: .table,
                    alert: "Cannot reach the server at 127.0.0.1:9. Check that it is running and the address is right."
                ), width: width, height: height
            ).buffer
            assertSnapshot(alert.text, styles: alert.styleText, named: "alert-\(width)x\(height)")
        }
    }

    @Test func selectionIsReversedAndNoEscapeSurvives() {
        let frame = MainScreen.render(mainModel(pane: .table), width: 80, height: 24)
        let selectedRow = (0..<24).first { y in frame.buffer[4, y].style.reverse }
        #expect(selectedRow == 5)
        let text = frame.buffer.text
        #expect(
            !text.unicodeScalars.contains {
                $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x202E || $0.value == 0x07
            })
        #expect(text.contains("EvilRed"))
    }

    @Test func tooSmall() {
        assertSnapshot(TooSmallScreen.render(width: 40, height: 10).buffer.text, named: "too-small-40x10")
    }
}

struct BufferTests {
    @Test func wideCharactersTakeTwoCellsAndAreNeverHalved() {
        var buffer = Buffer(width: 6, height: 1)
        #expect(buffer.put("東京x", x: 0, y: 0) == 5)
        #expect(buffer.text == "東京x")
        buffer[1, 0] = Cell("|")
        #expect(buffer.text == " |京x")
        #expect(buffer.put("東京東京", x: 0, y: 0, maxWidth: 4) == 3)
        #expect(buffer.text == "東… x")
    }

    @Test func asciiFallbackCoversTheScreenCharacters() {
        #expect(AsciiFallback.character(for: "⣿") == "#")
        #expect(AsciiFallback.character(for: "│") == "|")
        #expect(AsciiFallback.character(for: "a") == "a")
    }
}
