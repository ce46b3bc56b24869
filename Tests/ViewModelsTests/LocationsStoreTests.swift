import APIClient
import AppTestSupport
import Foundation
import OnTheMapModels
import Testing

@testable import ViewModels

@MainActor
struct LocationsStoreTests {
    @Test func refreshSortsNewestFirstAndSaysWhen() async {
        let api = FakeAPI()
        await api.set(rows: [SampleRows.row("a", "Old One", hoursAgo: 5), SampleRows.row("b", "New One", hoursAgo: 1)])
        let store = LocationsStore(api: api, pageSize: 2, now: TestClock.fixed)
        #expect(await store.refresh())
        #expect(store.locations.map(\.objectId) == ["b", "a"])
        #expect(store.statusText() == "2 locations · updated just now")
        #expect(store.hasMore)
    }

    @Test func nextPageSkipsWhatWasLoaded() async {
        let api = FakeAPI()
        await api.set(rows: [SampleRows.row("a", "A B"), SampleRows.row("b", "C D"), SampleRows.row("c", "E F")])
        let store = LocationsStore(api: api, pageSize: 2, now: TestClock.fixed)
        await store.refresh()
        await store.loadNextPage()
        #expect(store.locations.map(\.objectId) == ["a", "b", "c"])
        #expect(!store.hasMore)
        #expect(await api.calls == ["locations skip=0 limit=2", "locations skip=2 limit=2"])
    }

    /// A row deleted on the server leaves at once, and the next page does not skip the row that
    /// moved up into its place.
    @Test func aRemovedRowGoesAndTheNextPageStartsOneEarlier() async {
        let api = FakeAPI()
        await api.set(rows: [SampleRows.row("a", "A B"), SampleRows.row("b", "C D"), SampleRows.row("c", "E F")])
        let store = LocationsStore(api: api, pageSize: 2, now: TestClock.fixed)
        await store.refresh()
        try? await api.deleteLocation(objectId: "a")
        store.remove(objectId: "a")
        #expect(store.locations.map(\.objectId) == ["b"])
        await store.loadNextPage()
        #expect(store.locations.map(\.objectId) == ["b", "c"])
        #expect(await api.calls.last == "locations skip=1 limit=2")
    }

    /// The demo class holds broken rows among the newest: the first page still shows `pageSize`
    /// usable rows, asking only for the missing ones, and the next page continues right after.
    @Test func brokenRowsDoNotShortenAPage() async {
        let api = FakeAPI()
        var stream: [StudentInformation?] = (0..<250).map { SampleRows.row("r\($0)", "P \($0)", hoursAgo: Double($0)) }
        stream[3] = nil
        stream[40] = nil
        stream[120] = nil
        await api.set(rows: stream)
        let store = LocationsStore(api: api, pageSize: 100, now: TestClock.fixed)
        #expect(await store.refresh())
        #expect(store.locations.count == 100)
        #expect(store.skipped == 2)
        #expect(store.statusText() == "100 locations · updated just now")
        #expect(store.locations.last?.objectId == "r101")
        #expect(store.hasMore)
        await store.loadNextPage()
        #expect(store.locations.count == 200)
        #expect(store.skipped == 3)
        #expect(Set(store.locations.map(\.objectId)).count == 200)
        #expect(store.locations.last?.objectId == "r202")
        #expect(store.hasMore)
        await store.loadNextPage()
        #expect(store.locations.count == 247)
        #expect(!store.hasMore)
        #expect(
            await api.calls == [
                "locations skip=0 limit=100", "locations skip=100 limit=2", "locations skip=102 limit=100",
                "locations skip=202 limit=1", "locations skip=203 limit=100",
            ])
    }

    @Test func offlineFallsBackToTheCacheWithItsAge() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("otm-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = LocationCache(fileURL: directory.appendingPathComponent("c.json"))
        cache.save([SampleRows.row("a", "Cached Person")], at: TestClock.fixed().addingTimeInterval(-3 * 3600))
        let api = FakeAPI()
        await api.set(locationsError: .cannotReachServer(server: "127.0.0.1:1"))
        let store = LocationsStore(api: api, cache: cache, now: TestClock.fixed)
        #expect(await store.refresh() == false)
        #expect(store.isOffline)
        #expect(store.locations.map(\.objectId) == ["a"])
        #expect(store.statusText() == "1 location · offline · data from 3 h ago")
        #expect(store.lastError?.contains("127.0.0.1:1") == true)
    }

    @Test func filterIgnoresCaseAndAccentsOverNamePlaceAndLink() {
        let rows = [
            SampleRows.row("1", "José Núñez", place: "Madrid"), SampleRows.row("2", "Ann Lee", place: "São Paulo"),
            SampleRows.row("3", "Bo Li", link: "https://GitHub.com/boli"),
        ]
        #expect(LocationFilter.apply("jose", to: rows).map(\.objectId) == ["1"])
        #expect(LocationFilter.apply("SAO", to: rows).map(\.objectId) == ["2"])
        #expect(LocationFilter.apply("github", to: rows).map(\.objectId) == ["3"])
        #expect(LocationFilter.apply("  ", to: rows).count == 3)
    }

    @Test func selectionMovesClampsAndRepairs() {
        let rows = [SampleRows.row("1", "A A"), SampleRows.row("2", "B B"), SampleRows.row("3", "C C")]
        var state = BrowseState()
        state.move(by: 1, in: rows)
        #expect(state.selectedID == "1")
        state.move(by: 10, in: rows)
        #expect(state.selectedID == "3")
        state.filter = "a a"
        state.repair(in: state.visible(rows))
        #expect(state.selectedID == "1")
        state.cyclePane(forward: false)
        #expect(state.pane == .cards)
    }
}
