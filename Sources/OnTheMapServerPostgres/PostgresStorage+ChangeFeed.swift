import Foundation
import Logging
import NIOConcurrencyHelpers
import OnTheMapServer
import PostgresNIO

extension PostgresStorage: CrossProcessChanges {
    func makeCrossProcessTransport() -> any LocationChangeTransport {
        PostgresChangeTransport(client: client, logger: logger, storage: self)
    }
}

/// Changes between instances on one PostgreSQL database, with no broker beside it: the writer
/// sends `pg_notify('student_location_event', <the change as JSON>)` after its write committed,
/// and every instance (the writer too) LISTENs on that channel and delivers what it hears, in the
/// order PostgreSQL delivers notifications (commit order of the NOTIFYs).
///
/// A payload must stay under PostgreSQL's 8,000 bytes: a change whose two rows are longer is sent
/// as `ref:<objectId>` and the listeners read the row after from the database (the row before is
/// then unknown, so an update of such a row arrives as a `create`/`enter`, and its deletion is not
/// sent). While the listening connection is down, changes are missed; it reconnects every second.
final class PostgresChangeTransport: LocationChangeTransport {
    static let channel = "student_location_event"
    static let maxPayloadBytes = 7900

    private let client: PostgresClient
    private let logger: Logger
    private let storage: PostgresStorage
    private let listener = NIOLockedValueBox<Task<Void, Never>?>(nil)

    init(client: PostgresClient, logger: Logger, storage: PostgresStorage) {
        self.client = client
        self.logger = logger
        self.storage = storage
    }

    func send(_ change: LocationChange) async {
        guard let objectId = change.objectId else { return }
        let payload = change.encoded(maxBytes: Self.maxPayloadBytes) ?? "ref:" + objectId
        do {
            try await client.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)
        } catch {
            logger.warning("a change was not sent to the other instances", metadata: ["error": "\(type(of: error))"])
        }
    }

    func receive(_ deliver: @escaping @Sendable (LocationChange) -> Void) {
        let task = Task { [client, logger, storage] in
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            for try await notification in notifications {
                                let payload = notification.payload
                                if payload.hasPrefix("ref:") {
                                    let objectId = String(payload.dropFirst(4))
                                    if let row = try? await storage.location(objectId: objectId) {
                                        deliver(LocationChange(before: nil, after: row))
                                    }
                                } else if let change = LocationChange(encoded: payload) {
                                    deliver(change)
                                }
                            }
                        }
                    }
                } catch {
                    if Task.isCancelled { break }
                    logger.warning(
                        "not listening for other instances' changes; retrying in 1 s",
                        metadata: ["error": "\(String(describing: type(of: error)))"])
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        listener.withLockedValue { previous in
            previous?.cancel()
            previous = task
        }
    }

    func close() async {
        let task = listener.withLockedValue { $0 }
        task?.cancel()
        _ = await task?.value
    }
}
