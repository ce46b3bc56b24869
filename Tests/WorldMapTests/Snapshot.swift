import Foundation
import Testing

/// Compares text with Tests/WorldMapTests/Snapshots/<name>.txt; with SNAPSHOT_RECORD=1 in the
/// environment it writes the file instead.
func assertSnapshot(
    _ text: String, named name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
) {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots").appendingPathComponent(name + ".txt")
    let contents = text + "\n"
    if ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1" {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? contents.write(to: url, atomically: true, encoding: .utf8)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("missing snapshot \(name).txt; run with SNAPSHOT_RECORD=1", sourceLocation: sourceLocation)
        return
    }
    #expect(
        contents == expected, "snapshot \(name) differs; rerun with SNAPSHOT_RECORD=1 if intended",
        sourceLocation: sourceLocation)
}
