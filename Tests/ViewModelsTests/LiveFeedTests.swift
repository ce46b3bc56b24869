import APIClient
import AppTestSupport
import Foundation
import OnTheMapModels
import Testing

@testable import ViewModels

/// The live class map in the view-model: events from a fake channel merged into the rows, the
/// toast and the marks on a driven clock, the status word, and a selection that never jumps.
@MainActor
@Suite struct LiveFeedTests {
    let channel = FakeLiveChannel()
    let clock = TestClock()

    func app() async throws -> AppViewModel {
        let model = try #require(await loggedInApp(live: channel, clock: clock.read))
        #expect(await eventually { channel.isSubscribed })
        return model
    }

    static let lisbon = SampleRows.row(
        "new1", "Ada Lovelace", place: "Lisbon", latitude: 38.7, longitude: -9.1, hoursAgo: 0)

    @Test func aClassmatesPostAppearsWithAToastAndAMarkThatGoes() async throws {
        let model = try await app()
        let live = try #require(model.live)
        #expect(live.statusText == "connecting…")
        channel.send(.live)
        #expect(await eventually { live.statusText == "live" })
        channel.send(.change(.create, Self.lisbon))
        #expect(await eventually { model.store.locations.first?.objectId == "new1" })
        #expect(model.visibleRows.contains { $0.objectId == "new1" })
        #expect(model.toast?.text == "Ada Lovelace posted from Lisbon")
        #expect(live.isNew("new1"))
        #expect(model.isAnimating)
        clock.advance(seconds: LiveFeed.markSeconds + 1)
        model.tick()
        #expect(!live.isNew("new1"))
        #expect(live.marks.isEmpty)
        #expect(model.toast == nil)
    }

    @Test func anUpdateMovesThePinAndADeleteRemovesTheRow() async throws {
        let model = try await app()
        var moved = SampleRows.all[2]
        moved.latitude = -12
        moved.updatedAt = TestClock.start
        channel.send(.change(.update, moved))
        #expect(await eventually { model.store.locations.first?.objectId == "r3" })
        #expect(model.store.locations.first?.latitude == -12)
        #expect(model.store.locations.count == SampleRows.all.count, "replaced, not added")
        #expect(model.toast == nil, "only new posts are announced")
        channel.send(.change(.delete, moved))
        #expect(await eventually { !model.store.locations.contains { $0.objectId == "r3" } })
        channel.send(.change(.leave, SampleRows.all[1]))
        #expect(await eventually { !model.store.locations.contains { $0.objectId == "r2" } })
    }

    @Test func theSelectionAndTheScrollStayOnTheirRow() async throws {
        let model = try await app()
        model.moveSelection(by: 2)
        #expect(model.browse.selectedID == "r3")
        channel.send(.change(.create, SampleRows.row("top", "New Top", hoursAgo: 0)))
        #expect(await eventually { model.store.locations.first?.objectId == "top" })
        #expect(model.browse.selectedID == "r3")
        #expect(model.browse.tableOffset == 0, "a table at the top stays there, where the new row is")
        channel.send(.change(.delete, SampleRows.row("top", "New Top", hoursAgo: 0)))
        #expect(await eventually { model.store.locations.first?.objectId == "r1" })
        model.browse.tableOffset = 1
        channel.send(.change(.create, Self.lisbon))
        #expect(await eventually { model.store.locations.count == SampleRows.all.count + 1 })
        #expect(model.browse.selectedID == "r3")
        #expect(model.browse.tableOffset == 2, "the selected row stays where it was on screen")
        // The selected row is deleted: its neighbour takes the selection, not the first row.
        channel.send(.change(.delete, SampleRows.all[2]))
        #expect(await eventually { model.store.locations.count == SampleRows.all.count })
        #expect(model.browse.selectedID == "r4")
    }

    @Test func reconnectingCountsDownAndTheFirstPageResyncs() async throws {
        let model = try await app()
        let live = try #require(model.live)
        channel.send(.reconnecting(seconds: 4, reason: "closed"))
        #expect(await eventually { live.statusText == "reconnecting in 4 s" })
        clock.advance(seconds: 2.5)
        #expect(live.statusText == "reconnecting in 2 s")
        #expect(model.isAnimating, "the countdown redraws by itself")
        // After the reconnect the first page: r2 was deleted meanwhile, new1 posted.
        var page = SampleRows.all
        page.remove(at: 1)
        page.insert(Self.lisbon, at: 0)
        channel.send(.live)
        channel.send(.firstPage(page))
        #expect(await eventually { model.store.locations.map(\.objectId) == page.map(\.objectId) })
        #expect(live.statusText == "live")
    }

    @Test func socketTextIsCleanedBeforeTheToast() async throws {
        let model = try await app()
        let hostile = SampleRows.row("evil", "Eve\u{1B}[2J \u{202E}Mallory", place: "Lis\u{9B}bon\u{07}", hoursAgo: 0)
        channel.send(.change(.create, hostile))
        #expect(await eventually { model.toast != nil })
        let text = try #require(model.toast?.text)
        #expect(
            !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        #expect(text.hasPrefix("Eve"))
        channel.send(.refused("bad\u{1B}]0;x\u{07} where"))
        let live = try #require(model.live)
        #expect(await eventually { live.statusText.hasPrefix("not live") })
        #expect(!live.statusText.contains("\u{1B}"))
    }

    @Test func refreshStillWorksAndLogoutEndsTheSubscription() async throws {
        let model = try await app()
        #expect(channel.subscriptions == 1)
        model.refresh()
        #expect(await eventually { model.refreshing == nil })
        #expect(model.store.locations.count == SampleRows.all.count)
        model.logOut()
        #expect(await eventually { !channel.isSubscribed })
    }
}
