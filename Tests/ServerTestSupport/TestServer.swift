import Foundation
import Logging
import OnTheMapServer
@_spi(WritePath) import OnTheMapServerPostgres

#if canImport(FoundationNetworking)
import FoundationNetworking
import ServerAdmin
import ServerConfig
import ServerHTTP
#endif

/// The databases a storage test runs against: SQLite always; PostgreSQL when
/// `ONTHEMAP_TEST_POSTGRES_URL` names a server (`make test` starts one).
public enum TestBackend: String, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    public var description: String { rawValue }

    /// The backends available to this run.
    public static var available: [TestBackend] {
        postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    public static var postgresURL: URL? {
        ProcessInfo.processInfo.environment["ONTHEMAP_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
    }

    /// A fresh, empty database for one test: a SQLite file in `directory`, or a new PostgreSQL
    /// database beside the one `ONTHEMAP_TEST_POSTGRES_URL` names.
    public func makeDatabase(in directory: URL) async throws -> String {
        switch self {
        case .sqlite:
            return directory.appendingPathComponent("server.sqlite").path
        case .postgres:
            guard let admin = Self.postgresURL else { throw TestServerError("ONTHEMAP_TEST_POSTGRES_URL is not set") }
            let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            do {
                try await Self.administer(admin, "CREATE DATABASE \(name)")
            } catch let error as PGError {
                throw TestServerError("CREATE DATABASE: \(String(reflecting: error))")
            }
            var components = URLComponents(url: admin, resolvingAgainstBaseURL: false)
            components?.path = "/" + name
            guard let url = components?.string else { throw TestServerError("bad ONTHEMAP_TEST_POSTGRES_URL") }
            return url
        }
    }

    /// A configuration that opens `database`, a SQLite path or a PostgreSQL URL (the tests link
    /// PostgreSQL storage; the core alone refuses such a URL).
    public static func configuration(database: String) -> ServerConfiguration {
        var configuration = ServerConfiguration(databasePath: database)
        configuration.postgres = .live
        return configuration
    }

    /// Drops a database `makeDatabase` created.
    public func dropDatabase(_ location: String) async {
        guard self == .postgres, let admin = Self.postgresURL, let url = URL(string: location) else { return }
        let name = String(url.path.dropFirst())
        guard name.hasPrefix("t_") else { return }
        try? await Self.administer(admin, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs `sql` on the PostgreSQL database at `location` (a URL `makeDatabase` gave), behind the
    /// server's back: a test that makes a state no current code path makes (an old database).
    public static func executePostgres(_ sql: String, on location: String) async throws {
        guard let url = URL(string: location) else { throw TestServerError("not a URL: \(location)") }
        try await administer(url, sql)
    }

    private static func administer(_ url: URL, _ sql: String) async throws {
        try await PostgresAdministration.execute(sql, url: url)
    }
}

/// A failure of the test harness itself.
public struct TestServerError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// A real `onthemap-server` on 127.0.0.1 with its own database (a SQLite file in a temporary
/// folder, or a fresh PostgreSQL database), for tests that talk to it over HTTP.
public struct TestServer: Sendable {
    /// The timeout of the test clients that talk to a test server and are not testing timeouts:
    /// only a hang should reach it, and on a loaded 2-core machine an in-process server has taken
    /// more than 10 s to answer a login.
    public static let clientTimeout: TimeInterval = 60

    public let server: EmbeddedServer
    public let directory: URL
    public let configuration: ServerConfiguration
    public let backend: TestBackend

    public var baseURL: URL { server.baseURL }

    /// Starts a server. bcrypt runs at its lowest cost here to keep tests quick.
    public static func start(
        backend: TestBackend = .sqlite, openWrites: Bool = false, parseKeys: (String, String)? = nil, seedDemo: Bool = false,
        maxLimit: Int = 1000, loginThrottle: LoginThrottlePolicy = LoginThrottlePolicy(), trustProxy: Bool = false,
        metrics: Bool = false, logRequests: Bool = false, listCacheSeconds: Double = 1, logger: Logger? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = ServerConfiguration(
            port: 0, databasePath: try await backend.makeDatabase(in: directory), parseApplicationID: parseKeys?.0,
            parseRESTAPIKey: parseKeys?.1, openWrites: openWrites, maxLimit: maxLimit, bcryptCost: 4,
            loginThrottle: loginThrottle, trustProxy: trustProxy, metrics: metrics, logRequests: logRequests,
            listCacheSeconds: listCacheSeconds)
        configuration.postgres = .live
        // Bounds in time whose own tests set them: a loaded 2-core machine (the stress check's
        // two CPU hogs beside a parallel pass) can take longer than production's 30 s for a
        // request, and the connection would be reset under a test of something else; and a test
        // whose LiveQuery client reads (so answers pings) only between its steps can spend more
        // than production's two 10 s ping intervals on one step, and be closed with 1001.
        configuration.requestTimeout = .seconds(120)
        configuration.liveQuery.pingSeconds = 60
        configure(&configuration)
        var quiet = Logger(label: "test-server")
        quiet.logLevel = .critical
        let server: EmbeddedServer
        do {
            server = try await EmbeddedServer.start(configuration: configuration, seedDemo: seedDemo, logger: logger ?? quiet)
        } catch let error as PGError {
            // The error's description leaves the server's words out (they reach logs); a test needs them.
            throw TestServerError("PostgreSQL: \(String(reflecting: error))")
        }
        return TestServer(server: server, directory: directory, configuration: configuration, backend: backend)
    }

    /// Creates an account; returns its key.
    public func addUser(email: String, password: String = "correct horse", firstName: String = "Test", lastName: String = "User")
        async throws -> String
    {
        try await withDatabase { try await $0.addUser(email: email, password: password, firstName: firstName, lastName: lastName) }
    }

    /// Runs `body` with the server's database opened beside it (checks behind the API's back).
    public func withDatabase<T: Sendable>(_ body: (ServerDatabase) async throws -> T) async throws -> T {
        let database = try await ServerDatabase.open(configuration)
        do {
            let result = try await body(database)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }

    /// How many locations the database holds.
    public func locationCount() async throws -> Int {
        try await withDatabase { try await $0.locationCount() }
    }

    /// Stops the server, drops its database and deletes its folder.
    public func stop() async {
        await server.stop()
        await backend.dropDatabase(configuration.databasePath)
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Plain HTTP requests with full control of method, headers and body: what the original
/// clients sent, byte for byte.
public enum RawHTTP {
    public struct Reply: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data

        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as JSON, after the `)]}'` prefix when `prefixed`.
        public func json(prefixed: Bool = false) -> Any? {
            var data = body
            if prefixed {
                guard data.starts(with: Array(")]}'\n".utf8)) else { return nil }
                data = data.dropFirst(5)
            }
            return try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        }

        /// The `results` array of a StudentLocation list answer.
        public var results: [[String: Any]]? {
            (json() as? [String: Any])?["results"] as? [[String: Any]]
        }

        public func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    private static let session = makeSession()

    /// A session of its own, for requests that must not queue behind others to the same server
    /// (URLSession opens at most `connectionsPerHost` connections to one host).
    public static func makeSession(connectionsPerHost: Int = 6) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpMaximumConnectionsPerHost = connectionsPerHost
        return URLSession(configuration: configuration)
    }

    public static func send(
        _ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil, using session: URLSession? = nil
    ) async throws -> Reply {
        var request = URLRequest(url: url, timeoutInterval: TestServer.clientTimeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await (session ?? Self.session).data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key] = value }
        }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    public static func send(
        _ method: String, _ base: URL, _ pathAndQuery: String, headers: [String: String] = [:], json: String? = nil,
        using session: URLSession? = nil
    ) async throws -> Reply {
        var allHeaders = headers
        if json != nil { allHeaders["Content-Type"] = "application/json" }
        guard let url = URL(string: base.absoluteString + pathAndQuery) else {
            throw URLError(.badURL)
        }
        return try await send(method, url, headers: allHeaders, body: json.map { Data($0.utf8) }, using: session)
    }
}
