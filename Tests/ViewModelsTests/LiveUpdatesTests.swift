import Foundation
import OnTheMapModels
import Testing
import ViewModels

@Suite struct LiveUpdatesTests {
    static func message(_ op: String, _ id: String, first: String = "Ada", place: String = "Lisbon") -> String {
        #"{"op":"\#(op)","clientId":1,"requestId":1,"object":{"objectId":"\#(id)","uniqueKey":"k","firstName":"\#(first)","lastName":"Lovelace","mapString":"\#(place)","mediaURL":"","latitude":38.7,"longitude":-9.1,"createdAt":"2026-11-25T10:00:00.000Z","updatedAt":"2026-11-25T10:00:00.000Z"}}"#
    }

    static func rows(_ ids: [String]) -> [StudentInformation] {
        ids.map { StudentInformation(objectId: $0, uniqueKey: "k", firstName: $0, lastName: "", mapString: "", mediaURL: "", latitude: 0, longitude: 0) }
    }

    @Test func eventsMergeWithoutMovingOtherRows() throws {
        var rows = Self.rows(["a", "b", "c"])
        rows = LiveMerge.apply(try #require(LiveEvent.parse(Self.message("create", "n"))), to: rows)
        #expect(rows.map(\.objectId) == ["n", "a", "b", "c"])
        rows = LiveMerge.apply(try #require(LiveEvent.parse(Self.message("update", "b", place: "Porto"))), to: rows)
        #expect(rows.map(\.objectId) == ["n", "a", "b", "c"])
        #expect(rows[2].mapString == "Porto")
        rows = LiveMerge.apply(try #require(LiveEvent.parse(Self.message("leave", "a"))), to: rows)
        rows = LiveMerge.apply(try #require(LiveEvent.parse(Self.message("delete", "zzz"))), to: rows)
        #expect(rows.map(\.objectId) == ["n", "b", "c"])
        rows = LiveMerge.apply(try #require(LiveEvent.parse(Self.message("create", "n"))), to: rows)
        #expect(rows.map(\.objectId) == ["n", "b", "c"])  // twice is once
        // The selection stays on its row; on a removed row, on the one that took its place.
        #expect(LiveMerge.selection(of: "c", in: rows, previousIndex: 3) == 2)
        #expect(LiveMerge.selection(of: "a", in: rows, previousIndex: 1) == 1)
    }

    @Test func textFromTheSocketIsCleanedAndTheToastNamesThePoster() throws {
        let event = try #require(LiveEvent.parse(Self.message("create", "x", first: #"Ada\u001b[31m"#)))
        #expect(!event.location.firstName.unicodeScalars.contains { $0.value == 0x1B })
        #expect(event.toast?.hasSuffix("posted from Lisbon") == true)
        #expect(LiveEvent.parse(#"{"op":"connected","clientId":1}"#)?.kind == nil)
        #expect(LiveEvent.parse("not json")?.kind == nil)
        let update = try #require(LiveEvent.parse(Self.message("update", "x")))
        #expect(update.toast == nil)
    }

    @Test func reconnectsBackOffAndReset() {
        var status = LiveStatus()
        #expect(status.text == "connecting")
        let delays: [Int] = (0..<3).map { _ in status.dropped() }
        #expect(delays == [1, 2, 4])
        #expect(status.text == "reconnecting in 4 s")
        for _ in 0..<10 { _ = status.dropped() }
        let capped = status.dropped()
        #expect(capped == 30)
        status.connected()
        #expect(status.text == "live")
        let first = status.dropped()
        #expect(first == 1)
    }
}
