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
            throw Self.fail("the app needs a terminal (stdin and stdout must be a TTY); for scripts use `onthemap list`.")
        }
        let connection: Connection
        do {
            connection = try await serverOptions.connect(silent: true)
        } catch let failure as CommandFailure {
            throw Self.fail(failure.description)
        }
        let server = connection.client.configuration.serverDescription
        let environment = ProcessInfo.processInfo.environment
        let hint = connection.embedded == nil ? nil : "Built-in demo server · log in with demo@onthemap.example / onthemap"
        let backend: NCursesBackend
        do {
            backend = try NCursesBackend(mouse: !noMouse, forceASCII: ascii)
        } catch {
            await connection.close()
            throw Self.fail(String(describing: error))
        }
        let app = AppController(
            api: connection.client, geocoder: AppGeocoder.make(), opener: LinkOpener(environment: environment),
            serverName: server, hint: hint, cache: LocationCache.forServer(server, environment: environment), ascii: backend.asciiOnly)
        if let path = environment["ONTHEMAP_TRACE"], !path.isEmpty { app.trace = FrameTrace(path: path) }
        await app.run(on: backend)
        backend.shutdown()
        await connection.close()
        for link in app.unopenedLinks {
            print("Link that could not be opened: \(link)")
        }
    }
}
