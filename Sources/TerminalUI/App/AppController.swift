import APIClient
import Foundation
import Geo
import OnTheMapModels
import ViewModels

/// The app: owns the view-models, turns events into their intents, and draws the screen that
/// fits the state. One direction: event → intent → state → frame.
@MainActor
public final class AppController {
    /// Which top-level screen is up.
    public enum Phase: Sendable, Equatable { case login, main }

    public internal(set) var phase: Phase = .login
    public let login: LoginViewModel
    public let store: LocationsStore
    public var browse = BrowseState()
    public var map = MapView()
    public var posting: PostingViewModel?
    public var session: UserSession?
    var annotationOpen = false
    var helpOpen = false
    var alert: String?
    var confirmQuit = false
    /// The login alert offers the cached copy (o).
    var offlineOffered = false
    var toast: (text: String, until: Date)?
    var lastFrame: Frame?
    var isRefreshing = false
    var shouldQuit = false
    /// Benchmark timings, when asked for.
    public var trace: FrameTrace?
    /// Links no opener could take: printed when the app ends, so they can be copied.
    public internal(set) var unopenedLinks: [String] = []

    let api: any OnTheMapAPI
    let geocoder: any Geocoder
    let opener: LinkOpener
    /// How the footer names the server.
    public var serverName: String
    let ascii: Bool
    let started = Date()
    let clock: @Sendable () -> Date

    public init(
        api: any OnTheMapAPI, geocoder: any Geocoder, opener: LinkOpener, serverName: String, hint: String?,
        cache: LocationCache?, ascii: Bool, clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.api = api
        self.geocoder = geocoder
        self.opener = opener
        self.serverName = serverName
        self.ascii = ascii
        self.clock = clock
        self.login = LoginViewModel(api: api, hint: hint)
        self.store = LocationsStore(api: api, cache: cache, now: clock)
    }

    /// Milliseconds since start, for spinners.
    var milliseconds: Int { Int(clock().timeIntervalSince(started) * 1000) }

    /// The rows every pane shows: the store's, filtered.
    public var visibleRows: [StudentInformation] { browse.visible(store.locations) }

    /// Draws the screen for a `width`×`height` terminal.
    public func frame(width: Int, height: Int) -> Frame {
        guard TooSmallScreen.fits(width: width, height: height) else {
            return TooSmallScreen.render(width: width, height: height)
        }
        switch phase {
        case .login:
            return LoginScreen.render(login, width: width, height: height, milliseconds: milliseconds, ascii: ascii)
        case .main:
            if let until = toast?.until, until < clock() { toast = nil }
            let model = MainModel(
                rows: visibleRows, totalCount: store.locations.count, browse: browse, status: store.statusText(),
                server: serverName, accountKey: session?.accountKey, now: clock(), milliseconds: milliseconds,
                isRefreshing: isRefreshing, annotationOpen: annotationOpen, helpOpen: helpOpen, toast: toast?.text,
                alert: confirmQuit ? "A post is still being sent. Quit anyway? (y / n)" : alert, map: map, ascii: ascii)
            let main = MainScreen.render(model, width: width, height: height)
            guard let posting else { return main }
            return PostingScreen.render(posting, over: main, milliseconds: milliseconds, ascii: ascii)
        }
    }

    /// Runs until the user quits or input ends.
    public func run(on backend: any Backend) async {
        var drawnAt = Date.distantPast
        var pending = true
        var drawnState = 0
        while !shouldQuit {
            // Draw after every event or background change, and otherwise a few times a second
            // for spinners and toasts.
            let state = stateSignature
            let interval = isAnimating ? 0.18 : 5
            if pending || state != drawnState || clock().timeIntervalSince(drawnAt) >= interval {
                drawnState = state
                let started = Date()
                let size = backend.size
                let frame = frame(width: size.width, height: size.height)
                lastFrame = frame
                backend.draw(frame.buffer)
                drawnAt = clock()
                if let trace {
                    let milliseconds = String(format: "%.2f", Date().timeIntervalSince(started) * 1000)
                    let screen =
                        phase == .login ? "login" : "\(browse.pane.title.lowercased()):\(store.locations.count)"
                    trace.mark("frame", "\(milliseconds) \(size.width)x\(size.height) \(screen)")
                }
            }
            pending = false
            if let event = backend.nextEvent(timeoutMilliseconds: 15) {
                handle(event)
                pending = true
            }
            await Task.yield()
        }
    }

    /// Whether something on screen moves by itself (a spinner, a toast to take down).
    var isAnimating: Bool {
        isRefreshing || login.isBusy || posting?.isWorking == true || toast != nil
    }

    /// Changes when anything that background work can change has changed.
    var stateSignature: Int {
        var hasher = Hasher()
        hasher.combine(phase)
        hasher.combine(store.locations.count)
        hasher.combine(store.updatedAt)
        hasher.combine(store.isOffline)
        hasher.combine(isRefreshing)
        hasher.combine(login.isBusy)
        hasher.combine(login.alert)
        hasher.combine(login.flashedField)
        hasher.combine(login.signUpPolicy)
        hasher.combine(posting?.step)
        hasher.combine(posting?.alert)
        hasher.combine(alert)
        hasher.combine(toast?.text)
        hasher.combine(browse.selectedID)
        return hasher.finalize()
    }

    /// Shows a short note for a few seconds.
    func show(toast text: String, seconds: Double = 4) {
        toast = (text, clock().addingTimeInterval(seconds))
    }

    /// Routes one event to the screen that is up.
    public func handle(_ event: Event) {
        switch event {
        case .endOfInput:
            shouldQuit = true
        case .resize:
            break
        case .mouse(let action, let x, let y):
            handleMouse(action, x: x, y: y)
        case .key(let key):
            if key == .control("c") {
                shouldQuit = true
                return
            }
            switch phase {
            case .login: handleLoginKey(key)
            case .main: handleMainKey(key)
            }
        }
    }
}
