import Foundation
import NIOConcurrencyHelpers

/// One committed write to a StudentLocation row, as the change log recorded it: the row before it
/// (`nil` for a new row) and after it (`nil` once deleted), hidden mark included. LiveQuery
/// computes its events from the pair; the list cache only needs to know that something changed.
package struct LocationChange: Sendable, Hashable {
    package var before: StoredLocation?
    package var after: StoredLocation?
    /// Its place in the change log (0: not from the log).
    package var seq: Int64

    package init(before: StoredLocation?, after: StoredLocation?, seq: Int64 = 0) {
        self.before = before
        self.after = after
        self.seq = seq
    }

    package var objectId: String? { after?.objectId ?? before?.objectId }
}

/// A change listener in a class box, so that lock boxes hold a reference, never a bare closure.
package final class ChangeReceiver: Sendable {
    package let deliver: @Sendable (LocationChange) -> Void
    package init(_ deliver: @escaping @Sendable (LocationChange) -> Void) { self.deliver = deliver }
}

/// A refresh listener in a class box, like `ChangeReceiver`.
package final class RefreshReceiver: Sendable {
    package let refresh: @Sendable () -> Void
    package init(_ refresh: @escaping @Sendable () -> Void) { self.refresh = refresh }
}

/// The one change feed of a server: the StudentLocation changes its `ChangeLogFollower` reads,
/// fanned out to its listeners — the list cache and LiveQuery.
package final class LocationChangeFeed: Sendable {
    private let listeners = NIOLockedValueBox<[ChangeReceiver]>([])

    package init() {}

    /// Adds a listener; it is called for every change, in the follower's task, in log order.
    package func listen(_ listener: @escaping @Sendable (LocationChange) -> Void) {
        let boxed = ChangeReceiver(listener)
        listeners.withLockedValue { $0.append(boxed) }
    }

    package func deliver(_ change: LocationChange) {
        for listener in listeners.withLockedValue({ $0 }) { listener.deliver(change) }
    }

    private let refreshListeners = NIOLockedValueBox<[RefreshReceiver]>([])

    /// Adds a listener for the changes that come without rows (`LoggedChange.Change.refresh`):
    /// what was read before is out of date.
    package func listenForRefresh(_ listener: @escaping @Sendable () -> Void) {
        let boxed = RefreshReceiver(listener)
        refreshListeners.withLockedValue { $0.append(boxed) }
    }

    package func refresh() {
        for listener in refreshListeners.withLockedValue({ $0 }) { listener.refresh() }
    }
}
