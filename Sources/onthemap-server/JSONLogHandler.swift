import Foundation
import Logging

/// A swift-log handler that writes one JSON object per line to standard output:
/// `{"time":…,"level":…,"label":…,"message":…, <metadata>…}` — for log collectors.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    /// `2026-11-22T06:30:00.123Z`; a format style is Sendable and made once.
    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            fields[key] = "\(value)"
        }
        fields["time"] = Self.timeStyle.format(Date())
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = "\(event.message)"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(fields) else { return }
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(line)
    }
}
