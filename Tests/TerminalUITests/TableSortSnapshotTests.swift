import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

/// The table and the cards in every sort order, text and style layers, measured from Ada's pin
/// in London (and without a pin: blank distances).
@MainActor
struct TableSortSnapshotTests {
    static let london = GeoPoint(latitude: 51.5, longitude: -0.13)

    func model(pane: Pane, sort: TableSort, home: GeoPoint?) -> MainModel {
        var browse = BrowseState()
        browse.pane = pane
        browse.sort = sort
        let rows = sort.apply(browse.visible(SampleRows.all), home: home)
        browse.selectedID = "r2"
        return MainModel(
            rows: rows, totalCount: rows.count, browse: browse, status: "6 locations", server: "127.0.0.1:8080",
            accountKey: FakeAPI.accountKey, now: TestClock.start, home: home)
    }

    @Test func everySortOrder() {
        for sort in TableSort.allCases {
            for pane in [Pane.table, .cards] {
                let frame = MainScreen.render(model(pane: pane, sort: sort, home: Self.london), width: 120, height: 30)
                assertSnapshot(
                    frame.buffer.text, styles: frame.buffer.styleText, named: "sorted-\(pane.title.lowercased())-\(sort.rawValue)")
            }
        }
        let frame = MainScreen.render(model(pane: .table, sort: .distance, home: nil), width: 120, height: 30)
        assertSnapshot(frame.buffer.text, styles: frame.buffer.styleText, named: "sorted-table-distance-no-pin")
    }

    @Test func theOrders() {
        func names(_ sort: TableSort, home: GeoPoint? = Self.london) -> [String] {
            sort.apply(SampleRows.all, home: home).map(\.objectId)
        }
        #expect(names(.newest) == ["r1", "r2", "r3", "r4", "r5", "r6"])
        #expect(names(.distance) == ["r1", "r6", "r2", "r5", "r3", "r4"])
        #expect(names(.distance, home: nil) == names(.newest))
        #expect(RowFacts.country(of: SampleRows.all[0]) == "United Kingdom")
        #expect(RowFacts.country(of: SampleRows.all[2]) == "Japan")
        #expect(RowFacts.distanceText(12_345.4) == "12 345")
        #expect(RowFacts.distanceText(nil) == "")
    }

    @Test func sCyclesTheOrderAndKeepsTheSelection() async {
        guard let model = await loggedInApp(serverName: "s") else {
            Issue.record("the demo login did not finish")
            return
        }
        model.moveSelection(by: 2)
        let selected = model.selectedRow?.objectId
        var seen: [TableSort] = []
        for _ in TableSort.allCases {
            model.cycleSort()
            seen.append(model.browse.sort)
            #expect(model.selectedRow?.objectId == selected)
        }
        #expect(seen == [.name, .distance, .country, .newest])
        #expect(model.ownPin == GeoPoint(latitude: 51.5, longitude: -0.13))
    }
}
