import Foundation
import OnTheMapModels
import SafeText

/// One LiveQuery event, read from the socket's text and cleaned (SafeText) before anything can
/// show it.
public struct LiveEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case create, update, enter, leave, delete }

    public var kind: Kind
    public var location: StudentInformation

    public init(kind: Kind, location: StudentInformation) {
        self.kind = kind
        self.location = location
    }

    /// The event in one message of the protocol; `nil` for anything else (replies, errors, rows
    /// the forgiving decoder refuses: no objectId or no valid coordinates).
    public static func parse(_ message: String) -> LiveEvent? {
        struct Envelope: Decodable {
            var op: String
            var object: StudentInformation?
        }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(message.utf8)),
            let kind = Kind(rawValue: envelope.op), var row = envelope.object
        else { return nil }
        row.objectId = SafeText.clean(row.objectId)
        row.uniqueKey = SafeText.clean(row.uniqueKey)
        row.firstName = SafeText.clean(row.firstName)
        row.lastName = SafeText.clean(row.lastName)
        row.mapString = SafeText.clean(row.mapString)
        row.mediaURL = SafeText.clean(row.mediaURL)
        return LiveEvent(kind: kind, location: row)
    }

    /// "Ada Lovelace posted from Lisbon" for a new row; `nil` for the other kinds.
    public var toast: String? {
        guard kind == .create else { return nil }
        let name = location.fullName.isEmpty ? "Someone" : location.fullName
        return location.mapString.isEmpty ? "\(name) posted" : "\(name) posted from \(location.mapString)"
    }
}

/// Merges events into a list of rows without moving the rows a person is looking at: a new or
/// entering row goes on top (the list is newest first), an updated row is replaced where it
/// stands, a leaving or deleted row is removed. A row arriving twice is kept once.
public enum LiveMerge {
    public static func apply(_ event: LiveEvent, to rows: [StudentInformation]) -> [StudentInformation] {
        var rows = rows
        let index = rows.firstIndex { $0.objectId == event.location.objectId }
        switch event.kind {
        case .create, .enter:
            if let index { rows.remove(at: index) }
            rows.insert(event.location, at: 0)
        case .update:
            if let index { rows[index] = event.location } else { rows.insert(event.location, at: 0) }
        case .leave, .delete:
            if let index { rows.remove(at: index) }
        }
        return rows
    }

    /// Where the selection should be after a merge: on the same row when it is still there, else
    /// on the row that took its place.
    public static func selection(of objectId: String?, in rows: [StudentInformation], previousIndex: Int) -> Int {
        if let objectId, let index = rows.firstIndex(where: { $0.objectId == objectId }) { return index }
        return rows.isEmpty ? 0 : min(previousIndex, rows.count - 1)
    }
}

/// The live channel's state as the status line shows it, and its reconnect backoff (1, 2, 4 … 30 s).
public struct LiveStatus: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case connecting
        case live
        case reconnecting(inSeconds: Int)
    }

    public private(set) var state: State = .connecting
    private var nextDelay = 1

    public init() {}

    public var text: String {
        switch state {
        case .connecting: return "connecting"
        case .live: return "live"
        case .reconnecting(let seconds): return "reconnecting in \(seconds) s"
        }
    }

    /// Connected: the next failure waits 1 s again. The caller re-reads the first page now, so
    /// what changed while the socket was down is caught up.
    public mutating func connected() {
        state = .live
        nextDelay = 1
    }

    /// The socket failed or closed; returns how long to wait before trying again.
    public mutating func dropped() -> Int {
        let delay = nextDelay
        state = .reconnecting(inSeconds: delay)
        nextDelay = min(nextDelay * 2, 30)
        return delay
    }
}
