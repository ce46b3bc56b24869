import APIClient
import ArgumentParser
import DemoClass
import Foundation
import Geo
import MapPicture
import SafeText
import TerminalNCurses
import TerminalUI
import ViewModels

#if canImport(Glibc)
    import Glibc
#endif

/// `onthemap` (no subcommand): the terminal app.
struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui", abstract: "The terminal app: log in, browse the map, table and cards, post your place.")

    @OptionGroup var serverOptions: ServerOptions
    @OptionGroup var geocoderOptions: GeocoderOptions
    @OptionGroup var display: DisplayOptions

    func run() async throws {
        try await runApp()
    }

    @MainActor
    private func runApp() async throws {
        // Before curses owns the screen, so that it stays in the terminal's scrollback; the login
        // screen repeats it.
        serverOptions.warnAboutPlainHTTP()
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw Self.fail(
                "the app needs a terminal (stdin and stdout must be a TTY); for scripts use `onthemap list`.")
        }
        let environment = ProcessInfo.processInfo.environment
        let settings = AppSettings.resolve(server: serverOptions, geocoder: geocoderOptions, display: display)
        let geocoder = try geocoderOptions.makeGeocoder()
        let embedded = serverOptions.configuredServer == nil
        // The screen comes first: the connection (the built-in server starting) is made meanwhile,
        // and a request sent before it is ready waits for it.
        let options = serverOptions
        // A session kept by `onthemap login` for this server skips the login form (StoredSession).
        let stored = StoredSession.valid(for: serverOptions.sessionServerKey)
        let connecting = Task<Connection?, Never> {
            let connection = try? await options.connect(silent: true)
            if let stored { connection?.client.resume(stored.userSession) }
            return connection
        }
        let name =
            serverOptions.configuredServer.flatMap { URL(string: $0) }.map { url in
                url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? url.absoluteString
            } ?? "built-in server"
        // Said before curses owns the screen too, so that it stays in the scrollback; a toast repeats it.
        let terminalType = NCursesBackend.terminalType(environment["TERM"])
        if let note = terminalType?.note { FileHandle.standardError.write(Data("onthemap: \(note)\n".utf8)) }
        // Asked before curses owns the terminal: the answer to the query comes on stdin. The
        // background is asked for theme = auto (NO_COLOR makes any theme mono: nothing to pick).
        let detection = GraphicsDetection.detect(
            setting: settings.accessible.value ? .off : settings.graphics.value, environment: environment,
            background: settings.theme.value.asksBackground(environment))
        let graphics = settings.accessible.value ? nil : detection
        let theme = settings.theme.value.choose(background: detection.answer?.background, environment: environment)
        let backend: NCursesBackend
        do {
            backend = try NCursesBackend(
                mouse: settings.mouse.value, forceASCII: settings.ascii.value, theme: theme.name, terminalType: terminalType,
                graphics: graphics.flatMap { found in found.choice.imageProtocol.map { ($0, found.cellPixels) } },
                sixelLimits: (detection.answer?.sixelGeometry, detection.answer?.colorRegisters))
        } catch {
            await connecting.value?.close()
            throw Self.fail(String(describing: error))
        }
        let pending = PendingClient(connection: connecting, name: name)
        let model = AppViewModel(
            api: pending, geocoder: geocoder,
            opener: LinkOpener(environment: environment), serverName: name,
            hint: embedded ? "Built-in demo server · log in with \(DemoAccount.email) / \(DemoAccount.password)" : nil,
            cache: LocationCache.forServer(embedded ? "built-in" : name, environment: environment), live: pending)
        model.postingPrecision = Precision(rawValue: settings.precision.value) ?? .city
        // The "Log in with …" buttons: what the server offers (none from servers without discovery).
        model.login.discoverProviders()
        model.login.transportWarning = serverOptions.configuredServer.flatMap(URL.init(string:)).flatMap(
            PlainHTTPWarning.message(for:))
        if let stored { model.resume(stored.userSession, expectsEmail: serverOptions.effectiveDialect == .v1) }
        if let note = backend.terminalType.note {
            model.login.terminalNote = note
            model.show(toast: note, seconds: 8)
        }
        // Accessible mode draws frames in ASCII (no box drawing) but keeps names as they are.
        let accessible = settings.accessible.value
        let controller = AppController(app: model, keys: settings.keys, ascii: backend.asciiOnly || accessible)
        controller.accessible = accessible
        if let path = environment["ONTHEMAP_TRACE"], !path.isEmpty { controller.trace = FrameTrace(path: path) }
        controller.trace?.mark("graphics", graphics?.choice.reason ?? "accessible: Braille")
        controller.trace?.mark("theme", "\(theme.name.rawValue): \(theme.reason)")
        Task {
            if let connection = await connecting.value, embedded {
                model.serverName = "built-in " + connection.client.configuration.serverDescription
            }
        }
        await controller.run(on: backend)
        backend.shutdown()
        // Logged out in the app, or the server no longer took the saved session: forget it.
        if let stored, model.session?.sessionID != stored.sessionID { StoredSession.remove() }
        await connecting.value?.close()
        for link in model.unopenedLinks {
            print("Link that could not be opened: \(SafeText.clean(link))")
        }
    }
}
