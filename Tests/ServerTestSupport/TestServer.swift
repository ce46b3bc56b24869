import Foundation
import Logging
import OnTheMapServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `onthemap-server` on 127.0.0.1 with its own SQLite file in a temporary folder, for
/// tests that talk to it over HTTP.
public struct TestServer: Sendable {
    public let server: EmbeddedServer
    public let directory: URL
    public let configuration: ServerConfiguration

    public var baseURL: URL { server.baseURL }

    /// Starts a server. bcrypt runs at its lowest cost here to keep tests quick.
    public static func start(
        openWrites: Bool = false, parseKeys: (String, String)? = nil, seedDemo: Bool = false, maxLimit: Int = 1000
    ) async throws -> TestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let configuration = ServerConfiguration(
            port: 0, databasePath: directory.appendingPathComponent("server.sqlite").path, parseApplicationID: parseKeys?.0,
            parseRESTAPIKey: parseKeys?.1, openWrites: openWrites, maxLimit: maxLimit, bcryptCost: 4)
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        let server = try await EmbeddedServer.start(configuration: configuration, seedDemo: seedDemo, logger: logger)
        return TestServer(server: server, directory: directory, configuration: configuration)
    }

    /// Creates an account; returns its key.
    public func addUser(email: String, password: String = "correct horse", firstName: String = "Test", lastName: String = "User")
        async throws -> String
    {
        try await ServerDatabase.open(configuration).addUser(
            email: email, password: password, firstName: firstName, lastName: lastName)
    }

    /// The database, for checks behind the API's back.
    public func database() async throws -> ServerDatabase {
        try await ServerDatabase.open(configuration)
    }

    /// Stops the server and deletes its folder.
    public func stop() async {
        await server.stop()
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

        public func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration)
    }()

    public static func send(
        _ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Reply {
        var request = URLRequest(url: url, timeoutInterval: 20)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key] = value }
        }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    public static func send(
        _ method: String, _ base: URL, _ pathAndQuery: String, headers: [String: String] = [:], json: String? = nil
    ) async throws -> Reply {
        var allHeaders = headers
        if json != nil { allHeaders["Content-Type"] = "application/json" }
        guard let url = URL(string: base.absoluteString + pathAndQuery) else {
            throw URLError(.badURL)
        }
        return try await send(method, url, headers: allHeaders, body: json.map { Data($0.utf8) })
    }
}
