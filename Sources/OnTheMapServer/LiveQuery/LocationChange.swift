import Foundation
import NIOConcurrencyHelpers

/// One durable write to a StudentLocation row: the row before it (`nil` for a new row) and after
/// it (`nil` once deleted). LiveQuery computes its events from the pair; the list cache only
/// needs to know that something changed.
package struct LocationChange: Sendable, Hashable {
    package var before: StoredLocation?
    package var after: StoredLocation?

    package init(before: StoredLocation?, after: StoredLocation?) {
        self.before = before
        self.after = after
    }

    package var objectId: String? { after?.objectId ?? before?.objectId }
}

/// How changes travel from the process that wrote them to every process that serves
/// subscribers. `send` is called after the write is durable; `receive` registers the one
/// delivery function (`LocationChangeFeed.deliver`), called in the order the changes were sent.
package protocol LocationChangeTransport: Sendable {
    func send(_ change: LocationChange) async
    func receive(_ deliver: @escaping @Sendable (LocationChange) -> Void)
    /// Stops delivering (before the storage closes).
    func close() async
}

/// One process (SQLite): a change is delivered at once, in the writer's task.
package final class InProcessChangeTransport: LocationChangeTransport {
    /// The receiver, boxed: a bare closure read out of a generic lock box is re-wrapped in a
    /// pair of reabstraction thunks on every `withLockedValue` (copy-in, copy-out), so after some
    /// thousands of writes a delivery ran through that many thunks and overflowed the stack.
    private let receiver = NIOLockedValueBox<ChangeReceiver?>(nil)
    /// Serialises deliveries, so every subscriber sees the changes in one order.
    private let order = NIOLock()

    package init() {}

    package func send(_ change: LocationChange) async {
        let receiver = receiver.withLockedValue { $0 }
        order.withLock { receiver?.deliver(change) }
    }

    package func receive(_ deliver: @escaping @Sendable (LocationChange) -> Void) {
        let boxed = ChangeReceiver(deliver)
        receiver.withLockedValue { $0 = boxed }
    }

    package func close() async { receiver.withLockedValue { $0 = nil } }
}

/// A change listener in a class box, so that lock boxes hold a reference, never a bare closure.
package final class ChangeReceiver: Sendable {
    package let deliver: @Sendable (LocationChange) -> Void
    package init(_ deliver: @escaping @Sendable (LocationChange) -> Void) { self.deliver = deliver }
}

/// The one change feed of a server: what the storage wrote (through `ChangeFeedStorage` and a
/// transport) fanned out to its listeners — the list cache and LiveQuery.
package final class LocationChangeFeed: Sendable {
    private let listeners = NIOLockedValueBox<[ChangeReceiver]>([])

    package init() {}

    /// Adds a listener; it is called for every change, from the transport's thread, in order.
    package func listen(_ listener: @escaping @Sendable (LocationChange) -> Void) {
        let boxed = ChangeReceiver(listener)
        listeners.withLockedValue { $0.append(boxed) }
    }

    package func deliver(_ change: LocationChange) {
        for listener in listeners.withLockedValue({ $0 }) { listener.deliver(change) }
    }
}

extension LocationChange {
    /// The change as JSON text (PostgreSQL NOTIFY payloads), `nil` when it would be longer than
    /// `maxBytes`.
    package func encoded(maxBytes: Int = .max) -> String? {
        guard let data = try? JSONEncoder().encode(Wire(before: before.map(WireRow.init), after: after.map(WireRow.init))),
            data.count <= maxBytes
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads `encoded()`'s text.
    package init?(encoded text: String) {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(text.utf8)) else { return nil }
        self.init(before: wire.before?.row, after: wire.after?.row)
    }

    private struct Wire: Codable {
        var before: WireRow?
        var after: WireRow?
    }

    private struct WireRow: Codable {
        var objectId: String
        var uniqueKey, firstName, lastName, mapString, mediaURL: String?
        var latitude, longitude: Double?
        var createdAt, updatedAt: String

        init(_ row: StoredLocation) {
            objectId = row.objectId
            uniqueKey = row.uniqueKey
            firstName = row.firstName
            lastName = row.lastName
            mapString = row.mapString
            mediaURL = row.mediaURL
            latitude = row.latitude.flatMap { $0.isFinite ? $0 : nil }
            longitude = row.longitude.flatMap { $0.isFinite ? $0 : nil }
            createdAt = row.createdAt
            updatedAt = row.updatedAt
        }

        var row: StoredLocation {
            StoredLocation(
                objectId: objectId, uniqueKey: uniqueKey, firstName: firstName, lastName: lastName, mapString: mapString,
                mediaURL: mediaURL, latitude: latitude, longitude: longitude, createdAt: createdAt, updatedAt: updatedAt)
        }
    }
}
