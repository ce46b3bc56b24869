import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

/// The live class map as drawn: the status word in the footer and the `new` tag (text and
/// colour) on rows that just arrived, in the table and the cards; and the controller's frame
/// built from a real `LiveFeed`.
@MainActor
struct LiveSnapshotTests {
    func model(pane: Pane, status: String) -> MainModel {
        var browse = BrowseState()
        browse.pane = pane
        browse.selectedID = "r3"
        var model = MainModel(
            rows: SampleRows.all, totalCount: SampleRows.all.count, browse: browse,
            status: "6 locations · updated 2 min ago · \(status)", server: "127.0.0.1:8080", accountKey: "me",
            now: TestClock.start)
        model.newRows = ["r2"]
        return model
    }

    @Test func newRowsAreTaggedAndTheStatusSaysLive() {
        let table = MainScreen.render(model(pane: .table, status: "live"), width: 100, height: 24).buffer
        assertSnapshot(table.text, styles: table.styleText, named: "live-table-100x24")
        #expect(table.text.contains("new José Núñez"))
        #expect(table.text.contains("· live ·"))
        let map = MainScreen.render(model(pane: .map, status: "live"), width: 100, height: 24).buffer
        assertSnapshot(map.text, named: "live-map-100x24")
        #expect(map.text.contains("new: José Núñez (Madrid, Spain)"))
        let cards = MainScreen.render(model(pane: .cards, status: "reconnecting in 4 s"), width: 100, height: 24).buffer
        assertSnapshot(cards.text, named: "live-cards-reconnecting-100x24")
        #expect(cards.text.contains("new José Núñez"))
        #expect(cards.text.contains("reconnecting in 4 s"))
    }

    @Test func theControllerDrawsTheFeedsStatusAndMarks() async throws {
        let channel = FakeLiveChannel()
        let clock = TestClock()
        let app = try #require(await loggedInApp(live: channel, clock: clock.read))
        #expect(await eventually { channel.isSubscribed })
        app.browse.pane = .table
        let controller = AppController(app: app, ascii: false)
        channel.send(.live)
        channel.send(.change(.create, SampleRows.row("n1", "Ada Byron", place: "Lisbon", hoursAgo: 0)))
        #expect(await eventually { app.store.locations.count == SampleRows.all.count + 1 })
        var text = controller.frame(width: 100, height: 24).buffer.text
        #expect(text.contains("new Ada Byron"))
        #expect(text.contains("· live"))
        #expect(text.contains("Ada Byron posted from Lisbon"))
        clock.advance(seconds: LiveFeed.markSeconds + 1)
        app.tick()
        text = controller.frame(width: 100, height: 24).buffer.text
        #expect(!text.contains("new Ada Byron"))
        #expect(text.contains("Ada Byron"))
    }
}
