import APIClient
import Foundation
import Geo
import Observation
import OnTheMapModels

/// The app above its screens: the phase (login, browsing, posting), the session, refresh and
/// logout, offline browsing, alerts, toasts, links and quitting. It owns the other view-models,
/// calls the API and turns its errors into sentences; a terminal layer maps events to its intents
/// and draws what it holds. Observable: a change to anything a frame read asks for a redraw.
@MainActor
@Observable
public final class AppViewModel {
    /// Which top-level screen is up.
    public enum Phase: Sendable, Equatable { case login, browsing, posting }

    /// A short note, shown until `until`.
    public struct Toast: Sendable, Equatable {
        public var text: String
        public var until: Date
    }

    public internal(set) var phase: Phase = .login
    public let login: LoginViewModel
    public let store: LocationsStore
    public var browse = BrowseState()
    /// The posting form, while `phase == .posting`.
    public internal(set) var posting: PostingViewModel?
    public internal(set) var session: UserSession?
    /// A blocking message over the main view, until dismissed.
    public var alert: String?
    public internal(set) var toast: Toast?
    /// Asking "quit anyway?" because a post is being sent.
    public internal(set) var isConfirmingQuit = false
    /// A question about your data or a moderation act, waiting for y / n (`AppViewModel+YourData`).
    public internal(set) var confirmation: Confirmation?
    /// A moderator typing why a row is hidden, before it is.
    public internal(set) var hidePrompt: HidePrompt?
    /// The "Go to" prompt (`:`), while it is open (`AppViewModel+GoTo`).
    public internal(set) var goTo: GoToPrompt?
    /// The server names this account a moderator (`GET …/users/<key>` with the own session).
    public internal(set) var isModerator = false
    /// The login alert offers the cached copy (`browseOffline`).
    public internal(set) var offersOffline = false
    /// The selected pin's details are open (Map).
    public var isShowingDetails = false
    public var isHelpOpen = false
    public internal(set) var shouldQuit = false
    /// Links no opener could take: printed when the app ends, so they can be copied.
    public internal(set) var unopenedLinks: [String] = []
    /// How the footer names the server.
    public var serverName: String
    /// The refresh in flight; its progress shows as `store.isLoading`.
    @ObservationIgnored public internal(set) var refreshing: Task<Void, Never>?
    /// The check of a resumed session (`resume(_:expectsEmail:)`), while it runs.
    @ObservationIgnored public internal(set) var sessionCheck: Task<Void, Never>?

    let api: any OnTheMapAPI
    /// The provider side of device logins (Facebook, OAuth).
    let devices: any DeviceLoginAPI
    /// The device login on screen, if any (`AppViewModel+DeviceLogin`).
    public internal(set) var deviceLogin: DeviceLoginFlow?
    /// The task running `deviceLogin`: cancelled with it, so a wait or a poll in flight ends at once.
    @ObservationIgnored var deviceLoginTask: Task<Void, Never>?
    let geocoder: any Geocoder
    /// How precisely a post may place the student (the `precision` setting); city by default.
    public var postingPrecision: Precision = .city
    let opener: LinkOpener
    /// The live class map, when the app has a live channel (`AppViewModel+Live`).
    public let live: LiveFeed?
    public let clock: @Sendable () -> Date

    public init(
        api: any OnTheMapAPI, geocoder: any Geocoder, opener: LinkOpener, serverName: String, hint: String? = nil,
        cache: LocationCache? = nil, clock: @escaping @Sendable () -> Date = Date.init,
        devices: any DeviceLoginAPI = DeviceLoginClient(), live: (any LiveChannel)? = nil
    ) {
        self.live = live.map { LiveFeed(channel: $0, clock: clock) }
        self.api = api
        self.devices = devices
        self.geocoder = geocoder
        self.opener = opener
        self.serverName = serverName
        self.clock = clock
        self.login = LoginViewModel(api: api, hint: hint)
        self.store = LocationsStore(api: api, cache: cache, now: clock)
    }

    /// The rows every pane shows: the store's, filtered, in the chosen order.
    public var visibleRows: [StudentInformation] { browse.sort.apply(browse.visible(store.locations), home: ownPin) }

    /// Who is looking: the one answer to "is this row mine?" and "may I hide it?" (`Viewer`).
    public var viewer: Viewer { Viewer(accountKey: session?.accountKey, isModerator: isModerator) }

    /// Your own pin (your newest row), from which the table measures distances.
    public var ownPin: GeoPoint? {
        guard let mine = store.locations.first(where: viewer.owns) else { return nil }
        return GeoPoint(latitude: mine.latitude, longitude: mine.longitude)
    }

    /// `s`: the next sort order; the selection stays on its row.
    public func cycleSort() {
        browse.sort = browse.sort.next
        browse.repair(in: visibleRows)
    }

    /// The selected row, when it is visible.
    public var selectedRow: StudentInformation? {
        let rows = visibleRows
        return browse.selectedIndex(in: rows).map { rows[$0] }
    }

    /// The question to show while quitting waits for an answer.
    public var quitQuestion: String? {
        isConfirmingQuit ? "A post is still being sent. Quit anyway? (y / n)" : nil
    }

    /// Whether something on screen moves by itself (a spinner, a toast to take down).
    public var isAnimating: Bool {
        store.isLoading || login.isBusy || posting?.isWorking == true || toast != nil
            || deviceLogin?.isOver == false || live?.isAnimating == true
    }

    /// Takes down a toast whose time is up; the run loop calls it between events.
    public func tick() {
        if let until = toast?.until, until < clock() { toast = nil }
        live?.tick()
    }

    /// Shows a short note for a few seconds.
    public func show(toast text: String, seconds: Double = 4) {
        toast = Toast(text: text, until: clock().addingTimeInterval(seconds))
    }

    /// Closes the alert on top: the posting form's, the login form's, else the main view's.
    public func dismissAlert() {
        if let posting, posting.alert != nil {
            posting.alert = nil
            if posting.sessionEnded { sessionRejected() }
        } else if login.alert != nil {
            login.alert = nil
            offersOffline = false
        } else {
            alert = nil
        }
    }

    /// Whether an alert is up in the current phase.
    public var hasAlert: Bool {
        switch phase {
        case .login: login.alert != nil
        case .browsing: alert != nil
        case .posting: posting?.alert != nil || alert != nil
        }
    }

    /// Quits, or asks first while a post is being sent.
    public func quit() {
        if posting?.isWorking == true { isConfirmingQuit = true } else { shouldQuit = true }
    }

    /// Quits without asking (Ctrl-C, end of input, "yes" to the question).
    public func quitNow() { shouldQuit = true }

    /// "No" to the quit question.
    public func cancelQuit() { isConfirmingQuit = false }
}
