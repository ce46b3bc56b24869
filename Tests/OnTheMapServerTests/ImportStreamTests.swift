import Foundation
import ServerTestSupport
import Testing

@testable import ServerAdmin

/// `import` reads its file a chunk (64 KB) at a time and checks every row before it writes any:
/// what a row holds is read the same wherever the chunks split it, and the file's shape is
/// judged as a whole-file decoder judged it.
@Suite struct ImportStreamTests {
    /// Text that looks like structure (brackets, braces, commas, escaped quotes, line breaks in a
    /// quoted CSV cell), repeated so that chunk boundaries fall inside it: every row comes back
    /// exactly, from JSON and from CSV.
    @Test func rowsSplitAcrossChunksReadTheSame() async throws {
        // In the file, JSON-escaped; stored as a]} ,{["x\"y\\z and a line break.
        let tricky = #"a]} ,{[\"x\\\"y\\\\z\n"#
        let padding = String(repeating: "p", count: 700)
        let count = 400  // ~300 KB: several chunks
        let rows = (0..<count).map { index in
            #"{"objectId":"tricky\#(String(format: "%06d", index))","uniqueKey":"k","mapString":"\#(tricky)\#(index)","mediaURL":"\#(padding)","latitude":1,"longitude":2,"nested":{"a":[1,{"b":"]"}]}}"#
        }
        let json = #"{"before":{"results":"not these"},"results":[\#(rows.joined(separator: ",\n"))],"after":[1,2,"]"]}"#
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let report = try await server.withDatabase { try await $0.importLocations(Data(json.utf8), format: .json) }
        #expect(report == .init(read: count, imported: count, skippedCoordinates: 0, skippedDuplicates: 0, skippedMalformed: 0))
        var original = Data()
        _ = try await server.withDatabase { try await $0.export(format: .json) { original.append($0) } }
        let stored = try #require((try JSONSerialization.jsonObject(with: original) as? [String: Any])?["results"] as? [[String: Any]])
        #expect(stored.count == count)
        #expect(stored.allSatisfy {
            ($0["mapString"] as? String)?.hasPrefix("a]} ,{[\"x\\\"y\\\\z\n") == true && $0["mediaURL"] as? String == padding
        })

        // The export as CSV, into another class: the same rows.
        var csv = Data()
        _ = try await server.withDatabase { try await $0.export(format: .csv) { csv.append($0) } }
        #expect(csv.count > 3 * 64 * 1024)
        let copy = try await TestServer.start()
        defer { Task { await copy.stop() } }
        let again = try await copy.withDatabase { try await $0.importLocations(csv, format: .csv) }
        #expect(again.imported == count)
        var exported = Data()
        _ = try await copy.withDatabase { try await $0.export(format: .json) { exported.append($0) } }
        #expect(exported == original)
    }

    /// The file's shape, judged as the whole-file decoder judged it: a bare array is the rows (an
    /// old dump), a comma before the array's `]` passes; anything else without a `results`
    /// array, a file cut short or trailing text is refused, and nothing is written.
    @Test func theFilesShapeIsJudgedWhole() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let row = #"{"objectId":"ShapeRow01","uniqueKey":"k","latitude":1,"longitude":2}"#
        func outcome(_ text: String) async -> String {
            do {
                let report = try await server.withDatabase { try await $0.importLocations(Data(text.utf8), format: .json) }
                return "imported \(report.imported)"
            } catch {
                return "\(error)"
            }
        }
        #expect(await outcome("") == "The file is not JSON.")
        #expect(await outcome(#"{"results":[\#(row)"#) == "The file is not JSON.")
        #expect(await outcome(#"{"results":[\#(row)]} x"#) == "The file is not JSON.")
        #expect(await outcome(#"{"results":[\#(row)]]"#) == "The file is not JSON.")
        #expect(await outcome(#"{"rows":[\#(row)]}"#) == "The file has no \"results\" array.")
        #expect(await outcome(#"{"results":{"a":1}}"#) == "The file has no \"results\" array.")
        #expect(await outcome(#""text""#) == "The file has no \"results\" array.")
        #expect(try await server.locationCount() == 0, "nothing half-imported")
        #expect(await outcome("[\(row), 3, \"x\"]") == "imported 1")
        #expect(await outcome(#"{"results":[]}"#) == "imported 0")
        // A comma before the `]`, which the whole-file decoder (Foundation's JSONDecoder) let pass.
        #expect(await outcome(#"{"results":[{"objectId":"ShapeRow02","latitude":1,"longitude":2},],}"#) == "imported 1")
    }

    /// A refused row late in a file larger than a batch stops the import before any batch is
    /// written.
    @Test func aRefusalInALaterBatchWritesNothing() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        var rows = (0..<2500).map { #"{"objectId":"late\#(String(format: "%06d", $0))","uniqueKey":"k","latitude":1,"longitude":2}"# }
        rows.append(#"{"objectId":"lateBadRow","uniqueKey":"k","latitude":1,"longitude":2,"hidden":"yes"}"#)
        await #expect {
            try await server.withDatabase {
                try await $0.importLocations(Data(#"{"results":[\#(rows.joined(separator: ","))]}"#.utf8), format: .json)
            }
        } throws: { error in
            "\(error)" == #"Row 2501 of "results": hidden is not true or false ("yes"). Nothing was imported."#
        }
        let csv = "objectId,uniqueKey,latitude,longitude,hiddenReason\n"
            + (0..<2500).map { "late\(String(format: "%06d", $0)),k,1,2,\n" }.joined() + "lateBadRow,k,1,2,spam\n"
        await #expect {
            try await server.withDatabase { try await $0.importLocations(Data(csv.utf8), format: .csv) }
        } throws: { error in
            "\(error)" == "Record 2501 after the header: hiddenReason on a row that is not hidden (no hidden: true, no hiddenAt). Nothing was imported."
        }
        #expect(try await server.locationCount() == 0)
    }
}
