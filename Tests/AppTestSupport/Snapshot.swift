import Foundation
import Testing

/// Compares `text` (and, when given, its style layer: one code character per cell) with
/// `Snapshots/<name>.txt` beside the calling test file. A missing file is written and the test
/// fails saying so, to be reviewed; `SNAPSHOT_RECORD=1` rewrites every file without failing.
public func assertSnapshot(
    _ text: String, styles: String? = nil, named name: String, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let file = directory.appendingPathComponent(name + ".txt")
    let contents = text + (styles.map { "\nstyles:\n" + $0 } ?? "") + "\n"
    let record = ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1"
    let existing = try? String(contentsOf: file, encoding: .utf8)
    if record || existing == nil {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? contents.write(to: file, atomically: true, encoding: .utf8)
        if existing == nil && !record {
            Issue.record(
                "Recorded a new snapshot \(name).txt; review it and run again.", sourceLocation: sourceLocation)
        }
        return
    }
    #expect(
        existing == contents, "snapshot \(name) differs; SNAPSHOT_RECORD=1 rewrites it if intended",
        sourceLocation: sourceLocation)
}
