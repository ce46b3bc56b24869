import Foundation
import Launcher
import ServerTestSupport
import Testing

/// `onthemap-server import` reads its file a chunk at a time: a 10 MB file costs the process no
/// more memory than a file of ten rows, give or take a batch (was: the whole file and all of it
/// decoded at once, ~6 times the file over a small import: 155 MB more for 25 MB). 10 MB, not
/// more: the debug build reads it twice in about 15 s, on the server-process pass's clock.
@Suite(.serialized) struct ImportMemoryTests {
    /// The most a 10 MB import may take over a ten-row one: a batch of 1,000 rows, decoded, and
    /// the database's pages (9 MB measured for 25 MB); the whole file would not fit (~60 MB).
    static let boundBytes = 30 * 1024 * 1024

    @Test func aLargeImportTakesNoMoreMemoryThanASmallOne() async throws {
        try await HeavyTests.exclusively {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-import-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }

            let small = directory.appendingPathComponent("small.json").path
            let large = directory.appendingPathComponent("large.json").path
            try Self.writeRows(10, to: small)
            let rows = try Self.writeRows(until: 10_000_000, to: large)
            let size = try FileManager.default.attributesOfItem(atPath: large)[.size] as? Int ?? 0
            #expect(size >= 9_900_000)

            let (smallPeak, smallOutput) = try await Self.peakOfImport(small, database: directory.appendingPathComponent("small.sqlite").path)
            #expect(smallOutput.hasPrefix("Read 10 rows: imported 10;"), "\(smallOutput)")
            let (largePeak, largeOutput) = try await Self.peakOfImport(large, database: directory.appendingPathComponent("large.sqlite").path)
            #expect(largeOutput.hasPrefix("Read \(rows) rows: imported \(rows);"), "\(largeOutput)")
            #expect(smallPeak > 0 && largePeak > 0)
            #expect(
                largePeak - smallPeak < Self.boundBytes,
                "peak memory: \(largePeak / 1_048_576) MB for \(size / 1_048_576) MB of rows, \(smallPeak / 1_048_576) MB for ten rows")
        }
    }

    /// Runs `onthemap-server import FILE` to its end and returns the highest VmHWM (peak resident
    /// memory, bytes) read from /proc while it ran, and what it printed.
    static func peakOfImport(_ file: String, database: String) async throws -> (Int, String) {
        let process = try LaunchedProcess.start(ProductBinary.url("onthemap-server"), ["import", file, "--database", database])
        let status = "/proc/\(process.id)/status"
        var peak = 0
        while process.isRunning {
            if let text = try? String(contentsOfFile: status, encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            {
                peak = max(peak, kilobytes * 1024)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let result = await process.finished()
        #expect(result.status == 0, "\(result.stderr)")
        return (peak, result.stdout)
    }

    /// Writes an export-like `{"results":[…]}` of `count` rows, or of as many as reach `bytes`;
    /// the number of rows.
    @discardableResult
    static func writeRows(_ count: Int = .max, until bytes: Int = .max, to path: String) throws -> Int {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        var written = 0
        var rows = 0
        var chunk = #"{"results":["#
        while rows < count, written + chunk.utf8.count < bytes {
            let row = #"{"objectId":"row\#(String(format: "%09d", rows))","uniqueKey":"k\#(rows % 5000)","firstName":"First\#(rows % 97)","lastName":"Last\#(rows % 89)","mapString":"Place \#(rows % 1000), Somewhere","mediaURL":"https://example.com/\#(rows)","latitude":\#(Double(rows % 180) - 89.5),"longitude":\#(Double(rows % 360) - 179.5),"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-02T00:00:00.000Z"}"#
            chunk += (rows > 0 ? ",\n" : "\n") + row
            rows += 1
            if chunk.utf8.count > 1 << 16 {
                try handle.write(contentsOf: Data(chunk.utf8))
                written += chunk.utf8.count
                chunk = ""
            }
        }
        chunk += "\n]}\n"
        try handle.write(contentsOf: Data(chunk.utf8))
        return rows
    }
}
