import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import ServerConfig
import ServiceLifecycle

/// Runs the server from Hummingbird's public parts (the router's responder,
/// `HTTPServerBuilder.buildServer`) instead of its `Application.run()`.
///
/// Why: `Application.run()` always creates Hummingbird's `DateCache`, whose
/// `HTTPHeaderDateFormatStyle` builds a Gregorian `Calendar` that first resolves
/// `TimeZone.current` — through ICU in swift-foundation on Linux. That was every ICU resource
/// bundle the app opened with its built-in server (5 opens by `onthemap list`) and about 1.7 MB
/// of its resident memory (40.8–43.0 MB after login, against a budget of 40). Here the `Date`
/// header comes from `HTTPDateCache`, integer arithmetic on the Unix time.
///
/// What it keeps of `Application.run()`: a request id in each request's logger metadata
/// (`hb.request.id`, which `AccessLogMiddleware` sends back as `X-Request-Id`), in the logger
/// every handler gets from its context; an error that is not an HTTP answer becomes an empty
/// 500; the `Date` and `Server` headers on every answer; a parse error while writing closes the
/// connection without a second answer; `services` run in the same group before the server, so
/// they stop after it (graceful shutdown stops services in reverse order). Hummingbird's
/// `processesRunBeforeServerStart` has no counterpart: the server registers none. Nor does
/// binding the request's logger as the task's (`withLogger`): nothing this server links reads
/// `Logger.current`, and the binding cost about 3,500 instructions a request (callgrind,
/// Docs/Benchmarks.md "Server load").
public struct HTTPServerService: Service, CustomStringConvertible {
    let responder: RouterResponder<AppRequestContext>
    let server: HTTPServerBuilder
    let configuration: HummingbirdCore.ServerConfiguration
    let services: [any Service]
    let onServerRunning: @Sendable (any Channel) async -> Void
    let eventLoopGroup: any EventLoopGroup
    let logger: Logger

    public var description: String { "onthemap HTTP server" }

    package init(
        router: Router<AppRequestContext>, server: HTTPServerBuilder,
        configuration: HummingbirdCore.ServerConfiguration,
        services: [any Service], onServerRunning: @escaping @Sendable (any Channel) async -> Void,
        eventLoopGroup: any EventLoopGroup, logger: Logger
    ) {
        self.responder = router.buildResponder()
        self.server = server
        self.configuration = configuration
        self.services = services
        self.onServerRunning = onServerRunning
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Thrown instead of the parser's own error when an answer cannot be written: the connection
    /// handler answers a parser error with a 400, and this answer has already begun.
    struct ParseErrorWhileWriting: Error {}

    public func run() async throws {
        let dates = HTTPDateCache()
        let responder = self.responder
        let baseLogger = self.logger
        let serverName = configuration.serverName
        let server = try self.server.buildServer(
            configuration: configuration, eventLoopGroup: eventLoopGroup, logger: logger,
            responder: { (request, writer: consuming ResponseWriter, channel) in
                var logger = baseLogger
                logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
                let context = AppRequestContext(source: .init(channel: channel, logger: logger))
                var response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch let error as HTTPParserError {
                    throw error
                } catch {
                    logger.debug("unrecognised error", metadata: ["error.type": "\(error)"])
                    response = Response(status: .internalServerError, body: .init())
                }
                response.headers[.date] = dates.current
                if let serverName { response.headers[.server] = serverName }
                do {
                    try await writer.write(response: response.head, body: response.body)
                } catch is HTTPParserError {
                    throw ParseErrorWhileWriting()
                }
            },
            onServerRunning: onServerRunning)
        try await ServiceGroup(configuration: .init(services: services + [server], logger: logger)).run()
    }

    /// Runs the server in its own group that shuts down gracefully on SIGTERM and SIGINT.
    public func runService() async throws {
        try await ServiceGroup(
            configuration: .init(services: [self], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        ).run()
    }
}
