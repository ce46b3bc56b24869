import ArgumentParser
import Foundation
import Logging
import OnTheMapServer
import OnTheMapServerPostgres
import ServerAdmin
import ServerConfig

/// `onthemap-server`: the wire-compatible On the Map server and its administration.
@main
struct OnTheMapServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "onthemap-server",
        abstract: "A server that speaks the Udacity session API and the Parse StudentLocation API.",
        subcommands: [
            Serve.self, User.self, Location.self, Audit.self, Invite.self, Seed.self, Export.self, Import.self, Backup.self,
            Restore.self,
        ],
        defaultSubcommand: Serve.self)
}

/// Where the database is; shared by every subcommand.
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A SQLite file, or a postgres://user:password@host:port/database URL (default: $DATABASE_URL, else a file in the XDG data folder).",
            valueName: "path-or-url"))
    var database: String = ProcessInfo.processInfo.environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        ?? ServerConfiguration.defaultDatabasePath()

    /// An administration command's configuration: this database, a SQLite file or a PostgreSQL URL.
    var configuration: ServerConfiguration {
        var configuration = ServerConfiguration(databasePath: database)
        configuration.postgres = .live
        return configuration
    }

    /// Opens the database, runs `body` with it, and closes it whatever `body` does: every
    /// administration command goes through here, so none leaves its connections open.
    func withDatabase<T>(_ body: (ServerDatabase) async throws -> T) async throws -> T {
        let db = try await ServerDatabase.open(configuration)
        do {
            let result = try await body(db)
            await db.close()
            return result
        } catch {
            await db.close()
            throw error
        }
    }
}

extension OnTheMapServerCommand {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Serve the API over HTTP.")

        @Option(help: "The address to listen on.") var host = "127.0.0.1"
        @Option(help: "The port to listen on (0 picks a free one).") var port = 8080
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Require this X-Parse-Application-Id on the Parse paths (/parse, /1; not /v1).") var parseAppId: String?
        @Option(help: "Require this X-Parse-REST-API-Key on the Parse paths (/parse, /1; not /v1).") var parseRestKey: String?
        @Flag(
            help: "The 2015 Parse contract: anyone with the app keys may create, change and delete any location (trusted networks only).")
        var openWrites = false
        @Option(help: "The largest page a list request may ask for.") var maxLimit = 1000
        @Option(help: "Hours a login session lasts.") var sessionHours = 720.0
        @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"
        @Option(help: "Log format: text, or json (one object per line).") var logFormat = "text"
        @Flag(inversion: .prefixedNo, help: "Log one line per request (method, route, status, duration, request id).")
        var logRequests = true
        @Flag(inversion: .prefixedNo, help: "Record request metrics and serve them at /metrics (Prometheus).")
        var metrics = true
        @Option(
            help: """
                Serve /metrics only to requests with Authorization: Bearer <token>, from anywhere \
                (env ONTHEMAP_METRICS_TOKEN); without it /metrics answers loopback clients only.
                """)
        var metricsToken: String?
        @Flag(help: "Take the client's address from the last X-Forwarded-For entry (only behind a proxy that sets it).")
        var trustProxy = false
        @Option(help: "Failed logins of one email before it is refused with 429 (at least 5).") var loginFailures = 5
        @Option(help: "Failed logins from one client address before it is refused with 429.")
        var loginFailuresPerAddress = 100
        @Option(help: "Seconds failed logins are counted over, from the first.") var loginWindowSeconds = 900.0
        @Option(help: "Seconds a blocked email or address waits.") var loginBlockSeconds = 900.0
        @Option(
            help: ArgumentHelp(
                "Seconds a list answer may be served from memory; writes through any instance clear it at once (0: off).",
                valueName: "seconds"))
        var listCacheSeconds = 1.0
        @Option(help: "Seconds one list query may take in the database; past it: 400, code 124.")
        var queryTimeout = 2.0
        @Option(
            help: "Expensive list queries (any $regex, filters no index serves) that may run at once (default: half the cores); more wait 1 s, then 503.")
        var expensiveQueries = ServerConfiguration.defaultExpensiveQueries
        @Option(help: "Seconds a connection with no request in flight (idle, or still sending its headers) stays open.")
        var idleTimeout = 30.0
        @Option(help: "Seconds a request may take from its headers to the end of its answer before its connection is closed.")
        var requestTimeout = 30.0
        @Option(help: "Open connections at most; at the cap the longest-idle one is closed to make room.")
        var maxConnections = 1000
        @OptionGroup var access: AccessOptions
        @OptionGroup var fairShare: FairShareOptions
        @OptionGroup var providers: ProviderOptions
        @OptionGroup var liveQuery: LiveQueryOptions

        func validate() throws {
            if (parseAppId == nil) != (parseRestKey == nil) {
                throw ValidationError("Give both --parse-app-id and --parse-rest-key, or neither.")
            }
            guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
            guard maxLimit >= 1 else { throw ValidationError("--max-limit must be at least 1.") }
            guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("Unknown --log-level \(logLevel).") }
            guard ["text", "json"].contains(logFormat) else { throw ValidationError("--log-format is text or json.") }
            guard loginFailures >= 5, loginFailuresPerAddress >= 5 else {
                throw ValidationError("--login-failures and --login-failures-per-address must be at least 5.")
            }
            guard loginBlockSeconds >= 1, loginWindowSeconds >= 1 else {
                throw ValidationError("--login-window-seconds and --login-block-seconds must be at least 1.")
            }
            guard listCacheSeconds >= 0, listCacheSeconds <= 3600 else {
                throw ValidationError("--list-cache-seconds must be between 0 and 3600.")
            }
            guard queryTimeout >= 0.05, queryTimeout <= 600 else {
                throw ValidationError("--query-timeout must be between 0.05 and 600 seconds.")
            }
            guard (1...1000).contains(expensiveQueries) else { throw ValidationError("--expensive-queries must be 1 to 1000.") }
            guard idleTimeout >= 0.1, idleTimeout <= 86_400, requestTimeout >= 0.1, requestTimeout <= 86_400 else {
                throw ValidationError("--idle-timeout and --request-timeout must be between 0.1 and 86400 seconds.")
            }
            guard (1...1_000_000).contains(maxConnections) else { throw ValidationError("--max-connections must be 1 to 1000000.") }
        }

        func run() async throws {
            if logFormat == "json" {
                LoggingSystem.bootstrap(JSONLogHandler.init)
            } else {
                LoggingSystem.bootstrap(TextLogHandler.init)
            }
            var logger = Logger(label: "onthemap-server")
            logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
            var configuration = ServerConfiguration(
                host: host, port: port, databasePath: database.database, parseApplicationID: parseAppId,
                parseRESTAPIKey: parseRestKey, openWrites: openWrites, maxLimit: maxLimit,
                sessionLifetime: sessionHours * 3600,
                loginThrottle: LoginThrottlePolicy(
                    failuresPerAccount: loginFailures, failuresPerAddress: loginFailuresPerAddress,
                    windowSeconds: loginWindowSeconds, blockSeconds: loginBlockSeconds),
                trustProxy: trustProxy, metrics: metrics, logRequests: logRequests, listCacheSeconds: listCacheSeconds,
                queryTimeout: .milliseconds(Int64(queryTimeout * 1000)), expensiveQueries: expensiveQueries,
                idleTimeout: .milliseconds(Int64(idleTimeout * 1000)), requestTimeout: .milliseconds(Int64(requestTimeout * 1000)),
                maxConnections: maxConnections)
            access.apply(to: &configuration)
            fairShare.apply(to: &configuration)
            liveQuery.apply(to: &configuration)
            configuration.metricsToken = (metricsToken ?? ProcessInfo.processInfo.environment["ONTHEMAP_METRICS_TOKEN"])
                .flatMap { $0.isEmpty ? nil : $0 }
            (configuration.facebook, configuration.oauthProviders) = try providers.resolve()
            configuration.postgres = .live
            AccessOptions.warnAboutProxy(configuration, logger: logger)
            let serverLogger = logger
            let built = try await ServerApplication.build(configuration: configuration, logger: logger) { [configuration] port in
                serverLogger.notice(
                    "onthemap-server listening on http://\(configuration.host):\(port) (database \(configuration.database))")
            }
            defer { Task { await built.close() } }
            try await built.application.runService()
        }
    }

    struct User: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manage accounts.",
            subcommands: [Add.self, List.self, ResetPassword.self, Delete.self, Role.self, Suspend.self, Unsuspend.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Create an account and print its key.")

            @Option var email: String
            @OptionGroup var password: PasswordOptions
            @Option var firstName: String
            @Option var lastName: String
            @Option(help: "student (the default) or moderator.") var role = "student"
            @OptionGroup var database: DatabaseOptions

            func validate() throws {
                guard ServerDatabase.roles.contains(role) else { throw ValidationError("--role is student or moderator.") }
            }

            func run() async throws {
                let secret = try password.read()
                try await database.withDatabase { db in
                    do {
                        print(
                            try await db.addUser(
                                email: email, password: secret, firstName: firstName, lastName: lastName, role: role))
                    } catch let error as ServerDatabase.AccountError {
                        throw ValidationError(error.description)
                    }
                }
            }
        }
    }

    struct Seed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Fill the database with sample data.")

        @Flag(help: "Add the demo class and the demo account.") var demo = false
        @Flag(help: "Add the demo class even when the database already has locations.") var force = false
        @Option(help: "Add this many synthetic rows instead (for benchmarks), and print the main query's plan.")
        var synthetic: Int?
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard demo != (synthetic != nil) else { throw ValidationError("Say what to seed: --demo or --synthetic N.") }
            if let synthetic, !(1...50_000_000).contains(synthetic) {
                throw ValidationError("--synthetic takes 1 to 50000000 rows.")
            }
        }

        func run() async throws {
            try await database.withDatabase { db in
                if let synthetic {
                    try await db.seedSynthetic(count: synthetic)
                    print("Added \(synthetic) synthetic locations; the database holds \(try await db.locationCount()).")
                    print("Plan of limit=100&order=-updatedAt: " + (try await db.mainQueryPlan()).joined(separator: "; "))
                    return
                }
                let report = try await db.seedDemo(force: force)
                print("Added \(report.locationsAdded) locations" + (report.locationsAdded == 0 ? " (the database already had some; --force adds them anyway)." : "."))
                print("Demo account: \(report.demoEmail) / \(report.demoPassword)" + (report.demoAccountCreated ? " (created)" : " (already there)"))
            }
        }
    }
}
