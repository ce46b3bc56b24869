import APIClient
import ArgumentParser
import Foundation
import Logging
import OnTheMapConfig
import OnTheMapServer
import ServerConfig

extension APIDialect: ExpressibleByArgument {}

/// `--server` and `--dialect`, shared by every command that talks to a server.
struct ServerOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The server's URL (default: $ONTHEMAP_SERVER, else `server` in the settings file, else a built-in server with a demo class).",
            valueName: "url"))
    var server: String?

    @Option(help: "The API generation the server speaks: v1 (the default) or legacy (/api + /parse).")
    var dialect: APIDialect?

    /// The server URL given on the command line, in the environment or in the settings file, if any.
    var configuredServer: String? {
        AppSettings.resolve(server: self).server.value
    }

    /// The dialect given on the command line, in the environment or in the settings file, else v1.
    var effectiveDialect: APIDialect {
        APIDialect(rawValue: AppSettings.resolve(server: self).dialect.value) ?? .v1
    }

    func validate() throws {
        // A bad flag or $ONTHEMAP_SERVER ends the command, as it always has (the file's values
        // are checked, reported and skipped by `Settings`).
        let given = server.flatMap { $0.isEmpty ? nil : $0 } ?? ProcessInfo.processInfo.environment["ONTHEMAP_SERVER"]
        if let text = given, !text.isEmpty {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                url.host != nil
            else {
                throw ValidationError("The server must be an http:// or https:// URL, not “\(text)”.")
            }
        }
        AppSettings.warnOnce()
    }

    /// Warns once on stderr when a password would go to the configured server over plain http://
    /// to a host that is not loopback (`PlainHTTPWarning`); the built-in server is loopback.
    func warnAboutPlainHTTP() {
        if let text = configuredServer, let url = URL(string: text), let message = PlainHTTPWarning.message(for: url) {
            Diagnostics.warn("warning: " + message)
        }
    }

    /// A client for the configured server, or for an embedded one started now. `silent` drops
    /// the embedded server's log entirely (the TUI owns the terminal).
    func connect(silent: Bool = false) async throws -> Connection {
        if let text = configuredServer, let url = URL(string: text) {
            return Connection(client: OnTheMapClient(configuration: APIConfiguration(baseURL: url, dialect: effectiveDialect)), embedded: nil)
        }
        var logger =
            silent
            ? Logger(label: "onthemap.embedded-server", factory: { _ in SwiftLogNoOpLogHandler() })
            : Logger(label: "onthemap.embedded-server")
        logger.logLevel = .critical
        let configuration = EmbeddedServer.forOneStudent(
            ServerConfiguration(port: 0, databasePath: ServerConfiguration.defaultDatabasePath(name: "demo.sqlite")))
        let embedded: EmbeddedServer
        do {
            embedded = try await EmbeddedServer.start(configuration: configuration, logger: logger)
        } catch {
            throw CommandFailure("could not start the built-in server (\(configuration.databasePath)): \(error)")
        }
        let client = OnTheMapClient(configuration: APIConfiguration(baseURL: embedded.baseURL, dialect: effectiveDialect))
        return Connection(client: client, embedded: embedded)
    }
}

/// A client and, on the embedded default, the server it talks to.
struct Connection {
    let client: OnTheMapClient
    let embedded: EmbeddedServer?

    /// Stops the embedded server, if any.
    func close() async {
        await embedded?.stop()
    }
}

/// A failure that ends a command with one line on stderr and exit status 1 — never a stack trace.
/// `Diagnostics.exit` prints it.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

extension ParsableCommand {
    /// The failure that ends the command with `onthemap: message` on stderr (cleaned, by
    /// `Diagnostics`) and status 1.
    static func fail(_ message: String) -> CommandFailure {
        CommandFailure(message)
    }
}
