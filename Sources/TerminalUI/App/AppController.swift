import Foundation
import Observation
import ViewModels
import WorldMap

/// The terminal side of the app: draws the screen that fits the `AppViewModel`'s state and turns
/// events into its intents through the key table. One direction: event → action → state → frame.
@MainActor
public final class AppController {
    public let app: AppViewModel
    /// The bindings dispatch, the footer and the help overlay are read from.
    public let keys: KeyMap
    /// The Map pane's centre and zoom (a matter of the screen, not of the app's state).
    public var map = MapView()
    var lastFrame: Frame?
    /// A link `y` copied, for the run loop to hand to the backend after the event (never drawn).
    var pendingClipboard: String?
    /// Ctrl-Z was pressed: the run loop hands the terminal back (`Backend.suspend`).
    var pendingSuspend = false
    /// Benchmark timings, when asked for.
    public var trace: FrameTrace?
    let ascii: Bool
    let started: Date
    /// Accessible mode (`AppController+Accessible`): the map in words, a sentence per map action
    /// kept on screen, no animation.
    public var accessible = false
    /// The map is a picture: the backend shows pictures (never in accessible mode).
    public var graphics = false
    /// The backend's pictures replace the text under them (`Backend.picturesCoverText`): while
    /// anything is drawn over the map, the map is Braille.
    public var picturesCoverText = false
    /// The most cells the backend shows a picture over (`Backend.pictureLimit`).
    public var pictureLimit: PictureLimit?
    /// The last map action's sentence (accessible mode), shown until the next one.
    var announcement: String?
    /// The toast last repeated as the announcement, so that it is repeated once.
    var notedToast: AppViewModel.Toast?
    /// Why close views draw Natural Earth (`DetailMap.note`: the detailed map was not found), said
    /// once as a toast on the first close view; nil once said, or when the detailed map is there.
    var missingDetailedMapNote: String? = DetailMap.note

    public init(app: AppViewModel, keys: KeyMap = .standard, ascii: Bool) {
        self.app = app
        self.keys = keys
        self.ascii = ascii
        self.started = app.clock()
    }

    /// Milliseconds since start, for spinners.
    var milliseconds: Int { accessible ? 0 : Int(app.clock().timeIntervalSince(started) * 1000) }

    /// Draws the screen for a `width`×`height` terminal.
    public func frame(width: Int, height: Int) -> Frame {
        guard TooSmallScreen.fits(width: width, height: height) else {
            return TooSmallScreen.render(width: width, height: height)
        }
        var frame: Frame
        switch app.phase {
        case .login:
            frame = LoginScreen.render(
                app.login, width: width, height: height, milliseconds: milliseconds, ascii: ascii, keys: keys)
            if let flow = app.deviceLogin {
                frame = DeviceLoginScreen.render(flow, over: frame, milliseconds: milliseconds, ascii: ascii, keys: keys)
            }
        case .browsing, .posting:
            var model = MainModel(
                rows: app.visibleRows, totalCount: app.store.locations.count, browse: app.browse,
                status: app.store.statusText() + (app.live.map { " · " + $0.statusText } ?? ""),
                server: app.serverName, accountKey: app.session?.accountKey,
                now: app.clock(), milliseconds: milliseconds, isRefreshing: app.store.isLoading,
                annotationOpen: app.isShowingDetails, helpOpen: app.isHelpOpen, toast: app.toast?.text,
                alert: app.alert, map: map, ascii: ascii, keys: keys, home: app.ownPin)
            (model.accessible, model.announcement) = (accessible, accessible ? announcement : nil)
            model.isModerator = app.isModerator
            model.graphics = graphics && !accessible
            model.pictureLimit = pictureLimit
            model.goTo = app.phase == .browsing ? app.goTo : nil
            model.newRows = app.live.map { live in Set(live.marks.keys.filter(live.isNew)) } ?? []
            frame = MainScreen.render(model, width: width, height: height)
            if !app.hasAlert, app.phase == .browsing { drawYourDataOverlays(&frame) }
            if accessible { sayAnnouncement(&frame, model: model) }
            if let posting = app.posting {
                frame = PostingScreen.render(
                    posting, over: frame, milliseconds: milliseconds, ascii: ascii, keys: keys, accessible: accessible,
                    graphics: graphics && !accessible, pictureLimit: pictureLimit)
            }
        }
        if let question = app.quitQuestion {
            Overlay.alert(&frame.buffer, title: "Quit?", message: question, button: "y / n", ascii: ascii)
        }
        // Everything drawn over a map's cells shows through its picture, and so do the pictures
        // over it (the preview over the map), which may then be sent again alone.
        for index in frame.pictures.indices {
            frame.pictures[index].makeHoles(for: frame.buffer)
            for above in frame.pictures[(index + 1)...] { frame.pictures[index].makeHoles(over: above.rect) }
        }
        if picturesCoverText, frame.pictures.contains(where: { $0.holes.contains(true) }) {
            // Nothing would show through: this frame's maps are cells.
            graphics = false
            defer { graphics = true }
            return self.frame(width: width, height: height)
        }
        return placeCursor(in: frame)
    }

    /// Runs until the user quits or input ends. A frame is drawn after every event, when
    /// anything the last frame read from the view-models changes (Observation tracks what it
    /// read), and a few times a second while something animates.
    public func run(on backend: any Backend) async {
        let changed = RedrawSignal()
        var drawnAt = Date.distantPast
        var pending = true
        while !app.shouldQuit {
            app.tick()
            let interval = app.isAnimating ? 0.18 : 5
            if pending || changed.take() || app.clock().timeIntervalSince(drawnAt) >= interval {
                draw(on: backend, onChange: changed)
                drawnAt = app.clock()
            }
            pending = false
            if let event = backend.nextEvent(timeoutMilliseconds: 15) {
                handle(event)
                pending = true
                if let text = pendingClipboard {
                    pendingClipboard = nil
                    backend.setClipboard(text)
                }
                if pendingSuspend {
                    pendingSuspend = false
                    backend.suspend()
                }
            }
            await Task.yield()
        }
    }

    private func draw(on backend: any Backend, onChange changed: RedrawSignal) {
        let started = Date()
        let size = backend.size
        graphics = backend.showsPictures
        picturesCoverText = backend.picturesCoverText
        pictureLimit = backend.pictureLimit
        _ = changed.take()  // this frame reads the state as it is now
        let frame: Frame
        if changed.isArmed(for: size) {
            // Still watching what the last frame read (a key only moved the map, or a spinner
            // turned): watching it again would pile up registrations until the next change.
            frame = self.frame(width: size.width, height: size.height)
        } else {
            changed.arm(for: size)
            frame = withObservationTracking {
                // The trace's `login:providers=N` (below) is a frame drawn once discovery answered;
                // the login form alone does not read the policy, and an equal list of no providers
                // notifies nothing, so the trace watches it (else the tick, 5 s on, drew that frame).
                if trace != nil { _ = app.login.signUpPolicy }
                return self.frame(width: size.width, height: size.height)
            } onChange: {
                changed.fire()
            }
        }
        lastFrame = frame
        if accessible { noteToast() }
        backend.draw(frame.buffer, pictures: frame.pictures)
        backend.placeCursor(frame.cursor, visible: accessible)
        if let trace {
            let milliseconds = String(format: "%.2f", Date().timeIntervalSince(started) * 1000)
            // `login:providers=N` once discovery has answered (the end-to-end suite waits for it).
            let discovered = app.login.signUpPolicy.map { _ in ":providers=\(app.login.deviceProviders.count)" }
            let screen =
                app.phase == .login
                ? "login" + (discovered ?? "") : "\(app.browse.pane.title.lowercased()):\(app.store.locations.count)"
            // The map's zoom and centre, so that a benchmark can tell a city view's frames.
            let centre = map.latitude.map { String(format: "%.4f,%.4f", $0, map.longitude) } ?? "world"
            let view = app.phase == .login ? "" : String(format: " zoom=%g at=", map.zoom) + centre
            let over = coverings.isEmpty ? "" : " over=" + coverings.joined(separator: ",")
            trace.mark("frame", "\(milliseconds) \(size.width)x\(size.height) \(screen)\(view)\(over)")
        }
    }

    /// What is open over the screen, for the trace (a test waits for the frame that shows it, not
    /// for any frame: a terminal that reads keys late gives the app frames for the keys before).
    private var coverings: [String] {
        var open: [String] = []
        if app.isHelpOpen { open.append("help") }
        if app.goTo != nil { open.append("goto") }
        if let posting = app.posting { open.append(posting.chosen == nil ? "posting" : "posting-preview") }
        if app.confirmation != nil || app.quitQuestion != nil { open.append("question") }
        if app.hasAlert { open.append("alert") }
        return open
    }
}
