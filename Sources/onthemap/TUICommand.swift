import APIClient
import ArgumentParser
import Foundation
import Geo
import TerminalNCurses
import TerminalUI
import ViewModels

/// `onthemap` (no subcommand): the terminal app.
struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui", abstract: "The terminal app: log in, browse the map, table and cards, post your place.")

    @OptionGroup var serverOptions: ServerOptions
    @Flag(help: "Do not capture the mouse (lets the terminal select text).") var noMouse = false
    @Flag(help: "Draw with ASCII only (for fonts without Braille or box drawing).") var ascii = false

    func run() async throws {
        try await runApp()
    }

    @MainActor
    private func runApp() async throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw Self.fail(
                "the app needs a terminal (stdin and stdout must be a TTY); for scripts use `onthemap list`.")
        }
        let environment = ProcessInfo.processInfo.environment
        let embedded = serverOptions.configuredServer == nil
        // The screen comes first: the connection (the built-in server starting) is made meanwhile,
        // and a request sent before it is ready waits for it.
        let options = serverOptions
        let connecting = Task<Connection?, Never> { try? await options.connect(silent: true) }
        let name =
            serverOptions.configuredServer.flatMap { URL(string: $0) }.map { url in
                url.host.map { host in url.port.map { "\(host):\($0)" } ?? host } ?? url.absoluteString
            } ?? "built-in server"
        let backend: NCursesBackend
        do {
            backend = try NCursesBackend(mouse: !noMouse, forceASCII: ascii)
        } catch {
            await connecting.value?.close()
            throw Self.fail(String(describing: error))
        }
        let app = AppController(
            api: PendingClient(connection: connecting, name: name), geocoder: AppGeocoder.make(),
            opener: LinkOpener(environment: environment), serverName: name,
            hint: embedded ? "Built-in demo server · log in with demo@onthemap.example / onthemap" : nil,
            cache: LocationCache.forServer(embedded ? "built-in" : name, environment: environment),
            ascii: backend.asciiOnly)
        if let path = environment["ONTHEMAP_TRACE"], !path.isEmpty { app.trace = FrameTrace(path: path) }
        Task {
            if let connection = await connecting.value, embedded {
                app.serverName = "built-in " + connection.client.configuration.serverDescription
            }
        }
        await app.run(on: backend)
        backend.shutdown()
        await connecting.value?.close()
        for link in app.unopenedLinks {
            print("Link that could not be opened: \(link)")
        }
    }
}
