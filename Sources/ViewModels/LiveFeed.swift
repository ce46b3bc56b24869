import APIClient
import Foundation
import Observation
import OnTheMapModels
import SafeText

/// The live class map: reads a `LiveChannel` and merges its events into the app's rows (through
/// `AppViewModel.applyLive`), marks new rows for a few seconds and says whether it is live. No
/// terminal; the clock is injected so tests drive the marks and the countdown.
@MainActor
@Observable
public final class LiveFeed {
    public enum Status: Sendable, Equatable {
        case connecting
        case live
        /// The next attempt starts at `at`.
        case reconnecting(at: Date)
        /// The server refused the subscription for good.
        case refused(String)
    }

    /// How long a new row stays marked.
    public static let markSeconds: Double = 5

    public private(set) var status: Status = .connecting
    /// Rows marked new (by objectId), until when.
    public private(set) var marks: [String: Date] = [:]
    /// Events merged so far (for tests and the status).
    public private(set) var eventsApplied = 0

    let channel: any LiveChannel
    let clock: @Sendable () -> Date
    @ObservationIgnored var task: Task<Void, Never>?

    public init(channel: any LiveChannel, clock: @escaping @Sendable () -> Date) {
        self.channel = channel
        self.clock = clock
    }

    /// The status word: `live`, `reconnecting in N s`, `connecting…`, or the refusal (cleaned).
    public var statusText: String {
        switch status {
        case .connecting: return "connecting…"
        case .live: return "live"
        case .reconnecting(let at):
            let seconds = max(0, Int(at.timeIntervalSince(clock()).rounded(.up)))
            return seconds == 0 ? "reconnecting…" : "reconnecting in \(seconds) s"
        case .refused(let message): return "not live: " + SafeText.clean(message)
        }
    }

    /// Whether `objectId` is marked new now.
    public func isNew(_ objectId: String) -> Bool {
        marks[objectId].map { $0 > clock() } ?? false
    }

    /// Whether the screen must be redrawn by itself (a mark to take down, a countdown).
    public var isAnimating: Bool {
        if !marks.isEmpty { return true }
        if case .reconnecting = status { return true }
        return false
    }

    /// Drops marks whose time is up.
    public func tick() {
        let now = clock()
        let expired = marks.filter { $0.value <= now }.map(\.key)
        for key in expired { marks[key] = nil }
    }

    /// Starts reading; `apply` merges each event into the app.
    func start(apply: @escaping @MainActor (LiveEvent) -> Void) {
        stop()
        status = .connecting
        let stream = channel.liveEvents(where: nil)
        task = Task { [weak self] in
            for await event in stream {
                guard let self, !Task.isCancelled else { return }
                self.record(event)
                apply(event)
            }
        }
    }

    /// Ends the subscription (logout, quit).
    public func stop() {
        task?.cancel()
        task = nil
        marks = [:]
    }

    private func record(_ event: LiveEvent) {
        switch event {
        case .live: status = .live
        case .reconnecting(let seconds, _): status = .reconnecting(at: clock().addingTimeInterval(seconds))
        case .refused(let message): status = .refused(message)
        case .firstPage: break
        case .change(let op, let row):
            eventsApplied += 1
            if op == .create || op == .enter {
                marks[row.objectId] = clock().addingTimeInterval(Self.markSeconds)
            } else if !op.keepsRow {
                marks[row.objectId] = nil
            }
        }
    }

    /// "Ada Lovelace posted from Lisbon", cleaned for the terminal.
    public static func toast(for row: StudentInformation) -> String {
        let name = SafeText.clean("\(row.firstName) \(row.lastName)").trimmingCharacters(in: .whitespaces)
        let place = SafeText.clean(row.mapString).trimmingCharacters(in: .whitespaces)
        let who = name.isEmpty ? "Someone" : name
        return place.isEmpty ? "\(who) posted" : "\(who) posted from \(place)"
    }
}
