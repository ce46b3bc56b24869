import ClassRules
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix
import OnTheMapModels
import ServerConfig
import ServerHTTP
import ServerLiveQuery
import struct ServerConfig.ServerConfiguration
import ServerSessions
@_spi(WritePath) import ServerStorage
import ServiceLifecycle

/// Builds the server: storage, routes, and a Hummingbird application around them.
public enum ServerApplication {
    /// `/metrics` is for the operator: with `--metrics-token`, only that bearer token; without,
    /// only loopback clients. Anyone else gets 403.
    static func checkMetricsAccess(_ request: Request, address: String?, _ configuration: ServerConfiguration) throws {
        if let token = configuration.metricsToken {
            guard ConstantTime.equal(request.bearerToken ?? "", token) else { throw APIFailure.forbidden("The metrics need the operator's token (Authorization: Bearer).") }
            return
        }
        guard let address, ClientAddress.isLoopback(address) else {
            throw APIFailure.forbidden("The metrics answer loopback clients only; set --metrics-token to read them from elsewhere.")
        }
    }

    /// The router with every endpoint of the wire contract, in all its eras' paths. The
    /// controllers read through `storage` as an `any ServerStorage` and write through `writes`.
    static func buildRouter(
        storage writable: any WritableStorage, configuration: ServerConfiguration, feed: LocationChangeFeed? = nil,
        expensiveQueries: ExpensiveQueryGate? = nil, sessions: SessionAuthority? = nil
    ) -> Router<AppRequestContext> {
        let storage: any ServerStorage = writable
        let writes = ClassWrites(storage: writable, limits: configuration.fairShare)
        let router = Router(context: AppRequestContext.self)
        if configuration.logRequests {
            router.add(middleware: AccessLogMiddleware(level: .info, trustProxy: configuration.trustProxy))
        }
        if configuration.metrics {
            _ = ServerMetrics.registry
            router.get(RouterPath(RequestPath.metrics)) { request, context in
                try checkMetricsAccess(request, address: context.clientAddress(request, trustProxy: configuration.trustProxy), configuration)
                var headers = HTTPFields()
                headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: ServerMetrics.exposition())))
            }
        }
        router.add(
            middleware: RequestRulesMiddleware(
                metrics: configuration.metrics ? RequestMetrics() : nil,
                proxyHeaders: configuration.trustProxy ? nil : ProxyHeaderWarning()))
        let sessions = sessions ?? SessionAuthority(storage: storage, writes: writes, configuration: configuration)
        let throttle = LoginThrottle(
            storage: storage, policy: configuration.loginThrottle, signUpsPerAddress: configuration.signUpsPerAddress)
        let sessionController = SessionController(
            storage: storage, configuration: configuration, sessions: sessions, throttle: throttle,
            providerLogin: ProviderLogin(configuration: configuration, sessions: sessions, throttle: throttle))
        sessionController.register(on: router, paths: .v1, wrapsUser: false)
        sessionController.register(on: router, paths: .api, wrapsUser: true)
        let answers = ListAnswerCache(lifetime: .nanoseconds(Int64(configuration.listCacheSeconds * 1e9)))
        // Every instance's and every command's writes reach the feed through the change log.
        if answers.lifetime > .zero {
            feed?.listen { _ in answers.invalidate() }
            feed?.listenForRefresh { answers.invalidate() }
        }
        let callers = CallerResolver(configuration: configuration, sessions: sessions)
        let accounts = AccountController(
            storage: storage, writes: writes, configuration: configuration, sessions: sessions, callers: callers, throttle: throttle,
            answers: answers)
        accounts.register(on: router, paths: .v1)
        accounts.register(on: router, paths: .api)
        let locations = LocationController(
            storage: storage, writes: writes, configuration: configuration, callers: callers, answers: answers,
            expensiveQueries: expensiveQueries ?? ExpensiveQueryGate(slots: configuration.expensiveQueries))
        locations.register(on: router, paths: .v1, isV1: true)
        locations.register(on: router, paths: .parse, isV1: false)
        locations.register(on: router, paths: .parseOne, isV1: false)
        router.get(RouterPath(RequestPath.openAPI)) { _, _ in JSONResponse.raw(OpenAPIDocument.bytes) }
        router.get(RouterPath(RequestPath.health)) { _, context in
            do {
                try await storage.isReachable()
            } catch {
                context.logger.warning("health check failed: the database does not answer", metadata: ["error": "\(type(of: error))"])
                return JSONResponse.raw(status: .serviceUnavailable, Array(#"{"status":"unavailable"}"#.utf8))
            }
            return JSONResponse.raw(Array(#"{"status":"ok"}"#.utf8))
        }
        return router
    }

    /// Opens the configured database — a SQLite file or a PostgreSQL URL (through
    /// `configuration.postgres`) — and migrates it.
    static func openStorage(_ configuration: ServerConfiguration, logger: Logger = Logger(label: "onthemap-server.storage"))
        async throws -> any WritableStorage
    {
        try await configuration.database.open(
            queryTimeout: configuration.queryTimeout, postgres: configuration.postgres, logger: logger,
            sqliteReaders: configuration.sqliteReaders)
    }

    /// The LiveQuery socket, handed what it shares with the REST API: the list's expensive-query
    /// gate, and how the API's limits count a client address.
    static func liveQueryServer(
        storage: any ServerStorage, configuration: ServerConfiguration, sessions: SessionAuthority,
        expensiveQueries: ExpensiveQueryGate
    ) -> LiveQueryServer {
        LiveQueryServer(
            storage: storage, configuration: configuration, sessions: sessions, visibility: configuration.liveQueryVisibility,
            expensiveQueries: { try await expensiveQueries.run($0) }, addressSubject: { ClientAddress.subject($0) })
    }

    /// A server ready to run, and its change-log follower and storage to close after it stops.
    public struct Built: Sendable {
        public let application: HTTPServerService
        let storage: any ServerStorage
        let follower: ChangeLogFollower

        /// Stops following the change log and releases the database connections (after the
        /// application has stopped).
        public func close() async {
            await follower.stop()
            await storage.close()
        }
    }

    /// A server ready to `run()` or `runService()`.
    /// - Parameter onRunning: called with the bound port once the server listens.
    public static func build(
        configuration: ServerConfiguration, logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> Built {
        let opened = try await openStorage(configuration, logger: logger)
        let storage: any WritableStorage = configuration.metrics ? MeasuredStorage(opened) : opened
        // The change feed: what the database's triggers logged, by any writer in any process,
        // read by this instance's follower and fanned out off every writer's request.
        let feed = LocationChangeFeed()
        let expensiveQueries = ExpensiveQueryGate(slots: configuration.expensiveQueries)
        let sessions = SessionAuthority(
            storage: storage, writes: ClassWrites(storage: storage, limits: configuration.fairShare), configuration: configuration)
        let router = buildRouter(
            storage: storage, configuration: configuration, feed: feed, expensiveQueries: expensiveQueries, sessions: sessions)
        let liveQuery = liveQueryServer(
            storage: storage, configuration: configuration, sessions: sessions, expensiveQueries: expensiveQueries)
        feed.listen { liveQuery.hub.publish($0) }
        let follower = ChangeLogFollower(storage: storage, pollInterval: configuration.changeLogPoll, logger: logger)
        do {
            try await follower.start { entry in
                switch entry.change {
                case .location(let change): feed.deliver(change)
                case .account(let key): await liveQuery.followCaller(accountKey: key)
                case .refresh: feed.refresh()
                case .reload:
                    // The database was replaced (`restore`): no answer, subscription or socket
                    // caller read before is of it.
                    feed.refresh()
                    liveQuery.reload()
                }
            }
        } catch {
            await storage.close()
            throw error
        }
        let maxConnections = ConnectionLimiter.fitDescriptorLimit(connections: configuration.maxConnections)
        if maxConnections < configuration.maxConnections {
            logger.warning(
                "the open-file limit leaves room for \(maxConnections) connections, not \(configuration.maxConnections)")
        }
        let limiter = ConnectionLimiter(maxConnections: maxConnections)
        let requestTimeout = TimeAmount(configuration.requestTimeout)
        // A listen backlog of 1,024 (Hummingbird's default is 256): a burst of a few hundred
        // connections at once — a login flood — would otherwise overflow it, and every client
        // whose SYN is dropped, the normal ones too, waits a second or more to retry.
        let application = HTTPServerService(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedChildChannel(
                    inner: LiveQueryChildChannel(
                        responder: responder,
                        http1: .init(
                            additionalChannelHandlers: [ConnectionGuardHandler(limiter: limiter, requestTimeout: requestTimeout)],
                            idleTimeout: TimeAmount(configuration.idleTimeout)),
                        liveQuery: liveQuery),
                    limiter: limiter, idleTimeout: TimeAmount(configuration.idleTimeout))
            },
            configuration: HummingbirdCore.ServerConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "onthemap-server", backlog: 1024),
            services: [LiveQueryShutdown(server: liveQuery)],
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
            eventLoopGroup: configuration.eventLoopGroup ?? MultiThreadedEventLoopGroup.singleton, logger: logger)
        return Built(application: application, storage: storage, follower: follower)
    }
}

/// Closes the LiveQuery sockets when the server stops (they hold no task the server's own
/// shutdown would end): the server's group runs it first, so it is told last, once the server has
/// stopped accepting and finished its requests.
struct LiveQueryShutdown: Service {
    let server: LiveQueryServer

    func run() async throws {
        try? await gracefulShutdown()
        server.closeAll()
    }
}
