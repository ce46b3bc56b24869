import AppTestSupport
import Foundation
import Testing

/// The one `assertSnapshot`: a missing snapshot is written and the test fails until reviewed.
struct SnapshotAssertionTests {
    @Test func aMissingSnapshotIsWrittenAndFails() throws {
        let name = "missing-\(UUID().uuidString)"
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Snapshots/\(name).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        // Under SNAPSHOT_RECORD=1 nothing fails: the known issue may not come.
        withKnownIssue("a new snapshot fails its first run", isIntermittent: true) {
            assertSnapshot("line one", styles: "RR", named: name)
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "line one\nstyles:\nRR\n")
        assertSnapshot("line one", styles: "RR", named: name)
    }
}
