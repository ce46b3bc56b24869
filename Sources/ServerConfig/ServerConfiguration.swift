import ClassRules
import Foundation
import NIOCore
import OnTheMapModels
import ServerStorage

/// How an `onthemap-server` runs: where it listens, where it stores, and its policies.
public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port (the embedded default).
    public var port: Int
    /// The SQLite file.
    public var databasePath: String
    /// When both are set, StudentLocation requests on the Parse paths (not `/v1`) must carry them (`X-Parse-Application-Id`,
    /// `X-Parse-REST-API-Key`) or get 403 `{"error":"unauthorized"}`.
    public var parseApplicationID: String?
    public var parseRESTAPIKey: String?
    /// The 2015 Parse contract: a caller without a session may create, update and delete any
    /// row (Docs/Access.md `openWriter`); for a trusted network only. Sessions still act as their account.
    public var openWrites: Bool
    public var defaultLimit: Int
    public var maxLimit: Int
    /// Seconds a session lives.
    public var sessionLifetime: TimeInterval
    /// bcrypt cost for new passwords (10 or more).
    public var bcryptCost: UInt8
    public var maxBodyBytes: Int
    public var maxStringBytes: Int
    /// When failed logins are refused with 429.
    public var loginThrottle: LoginThrottlePolicy
    /// Password hashes (bcrypt: login, decoy, sign-up) that may run at once in the process.
    public var maxConcurrentHashes: Int
    /// Hashes that may wait for a place; beyond them the answer is 503 at once.
    public var maxWaitingHashes: Int
    /// Seconds a hash may wait for a place before it is answered 503.
    public var maxHashWaitSeconds: Double
    /// Who may sign up: anyone (`open`, the default), with an invite code, or nobody.
    public var signUp: SignUpPolicy
    /// Sign-ups let through per client address per hour.
    public var signUpsPerAddress: Int
    /// Take the client's address from the last `X-Forwarded-For` entry (behind a reverse proxy
    /// that appends it, like nginx's `$proxy_add_x_forwarded_for`); otherwise the socket's peer.
    public var trustProxy: Bool
    /// Record request metrics and serve `/metrics` (bootstraps swift-metrics once per process).
    public var metrics: Bool
    /// When set, `/metrics` answers only `Authorization: Bearer <token>`, from anywhere; when not,
    /// only clients on loopback (the address the limits see: with `trustProxy`, the proxy's
    /// `X-Forwarded-For`), so a deployment on a public port does not publish it by default.
    public var metricsToken: String?
    /// Log one line per request (method, route, status, duration, request id).
    public var logRequests: Bool
    /// Seconds a list answer may be served from memory (`ListAnswerCache`); 0 turns that off.
    /// Writes clear it at once; this bounds staleness only for writes the server does not hear of.
    public var listCacheSeconds: Double
    /// The time one list (and count) query may take in the database; past it the answer is 400
    /// `{"code":124,"error":"query too expensive"}`.
    public var queryTimeout: Duration
    /// List queries that no index serves (any `$regex`, other filters and orders than the apps'
    /// own) that may run at once; more wait up to `ExpensiveQueryGate.maxWait`, then get 503.
    public var expensiveQueries: Int
    /// A connection with no request in flight (keep-alive, or headers still trickling in) is
    /// closed after this long.
    public var idleTimeout: Duration
    /// A request must be read and answered within this long from its head, or its connection is
    /// closed (a body trickled a byte at a time, an answer the client does not read).
    public var requestTimeout: Duration
    /// Open connections at most; at the cap the longest-idle one makes room (`ConnectionLimiter`).
    public var maxConnections: Int
    /// Fair share (Docs/Access.md): the most rows one account may have on the map.
    public var maxRowsPerAccount: Int = 5
    /// Fair share: writes (POST, PUT, DELETE) one account may make per minute, on all instances together.
    public var maxWritesPerMinute: Int = 30
    /// Facebook Login for Devices; `nil` refuses the `facebook_mobile` credential (400).
    public var facebook: FacebookSettings? = nil
    /// RFC 8628 device-login providers (`{"oauth":{"provider":NAME,…}}`), by name.
    public var oauthProviders: [OAuthProviderSettings] = []
    /// Opens a `postgres://` database; `nil` (the default) refuses one. Set by the executables
    /// that link `OnTheMapServerPostgres` (`PostgresOpener.live`).
    package var postgres: PostgresOpener? = nil
    /// Carries the requests to login providers; `nil` (the default): the API's own,
    /// `BoundedHTTPProviderExchange` (ServerHTTP). Tests set their own.
    package var providerExchange: (any ProviderExchange)? = nil
    /// The threads that accept and serve connections (nil: NIO's shared group, a thread a
    /// core); the terminal app's built-in server, which serves one student, runs on one.
    package var eventLoopGroup: (any EventLoopGroup)? = nil
    /// The most reading connections a SQLite file opens (nil: GRDB's default of 5).
    package var sqliteReaders: Int? = nil
    /// The LiveQuery socket's bounds (`serve --live-*`).
    public var liveQuery = LiveQueryLimits()
    /// Who may see which row over LiveQuery (the default: every row, as the REST list).
    package var liveQueryVisibility: LiveQueryVisibility = { row, caller in Access.maySee(row, caller) }
    /// How often the change log is read when nothing signalled a write: the longest a write by
    /// another process goes unseen when no notification reaches this one (a command on the same
    /// SQLite file; a PostgreSQL notification lost while its connection was down).
    package var changeLogPoll: Duration = .milliseconds(250)
    /// Origins besides the server's own whose pages may open a LiveQuery socket
    /// (`serve --allowed-origin`, e.g. `https://class.example.org`); see `OriginCheck`.
    public var allowedOrigins: [String] = []

    /// Fair share's limits, as the write path takes them.
    package var fairShare: FairShareLimits {
        FairShareLimits(maxRowsPerAccount: maxRowsPerAccount, maxWritesPerMinute: maxWritesPerMinute)
    }

    public static let defaultQueryTimeout: Duration = DatabaseLocation.defaultQueryTimeout
    /// Half the cores, at least one: expensive queries never take every core from the rest.
    public static let defaultExpensiveQueries = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)

    public init(
        host: String = "127.0.0.1", port: Int = 8080, databasePath: String = ServerConfiguration.defaultDatabasePath(),
        parseApplicationID: String? = nil, parseRESTAPIKey: String? = nil, openWrites: Bool = false,
        defaultLimit: Int = 100, maxLimit: Int = 1000, sessionLifetime: TimeInterval = 30 * 86_400,
        bcryptCost: UInt8 = 10, maxBodyBytes: Int = 64 * 1024, maxStringBytes: Int = 1024,
        loginThrottle: LoginThrottlePolicy = LoginThrottlePolicy(),
        maxConcurrentHashes: Int = ServerConfiguration.defaultMaxConcurrentHashes, maxWaitingHashes: Int = 8,
        maxHashWaitSeconds: Double = 2,
        signUp: SignUpPolicy = .open, signUpsPerAddress: Int = 5, trustProxy: Bool = false, metrics: Bool = false,
        logRequests: Bool = false, listCacheSeconds: Double = 1, queryTimeout: Duration = ServerConfiguration.defaultQueryTimeout,
        expensiveQueries: Int = ServerConfiguration.defaultExpensiveQueries, idleTimeout: Duration = .seconds(30),
        requestTimeout: Duration = .seconds(30), maxConnections: Int = 1000
    ) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.parseApplicationID = parseApplicationID
        self.parseRESTAPIKey = parseRESTAPIKey
        self.openWrites = openWrites
        self.defaultLimit = defaultLimit
        self.maxLimit = maxLimit
        self.sessionLifetime = sessionLifetime
        self.bcryptCost = bcryptCost
        self.maxBodyBytes = maxBodyBytes
        self.maxStringBytes = maxStringBytes
        self.loginThrottle = loginThrottle
        self.maxConcurrentHashes = max(maxConcurrentHashes, 1)
        self.maxWaitingHashes = max(maxWaitingHashes, 0)
        self.maxHashWaitSeconds = min(max(maxHashWaitSeconds, 0.01), 60)
        self.signUp = signUp
        self.signUpsPerAddress = max(signUpsPerAddress, 1)
        self.trustProxy = trustProxy
        self.metrics = metrics
        self.logRequests = logRequests
        self.listCacheSeconds = listCacheSeconds
        self.queryTimeout = queryTimeout
        self.expensiveQueries = expensiveQueries
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.maxConnections = maxConnections
    }

    /// Half the processor cores (at least 1): the other half keeps serving requests while a
    /// flood of logins hashes. Measured on 2 cores: see Docs/Operations.md.
    public static let defaultMaxConcurrentHashes = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)

    /// `$XDG_DATA_HOME/onthemap/<name>` (default `~/.local/share/onthemap/<name>`).
    public static func defaultDatabasePath(name: String = "server.sqlite") -> String {
        let environment = ProcessInfo.processInfo.environment
        let base: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        return base + "/onthemap/" + name
    }
}
