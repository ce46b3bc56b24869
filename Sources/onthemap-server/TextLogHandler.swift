import Logging

/// swift-log's standard text lines on standard error, with the metadata joined when a line is
/// written rather than each time a key is set. Hummingbird sets a request id on every request's
/// logger, and `StreamLogHandler` joins its whole metadata into text on each set: 3.5 % of the
/// server's time under load, for lines that at the default level are never written.
struct TextLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String) {
        self.label = label
        self.metadataProvider = LoggingSystem.metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
        line.logLevel = logLevel
        line.metadata = metadata
        line.log(event: event)
    }
}
