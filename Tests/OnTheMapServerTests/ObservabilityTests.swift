import Foundation
import GRDB
import Logging
import OnTheMapServer
import ServerTestSupport
import Synchronization
import Testing

/// Request logs, `/metrics` and `/openapi.json` over real HTTP.
@Suite struct ObservabilityTests {
    /// Keeps every log line a server writes, as text.
    final class LogCapture: Sendable {
        let lines = Mutex<[String]>([])

        func logger() -> Logger {
            var logger = Logger(label: "captured") { _ in Handler(capture: self) }
            logger.logLevel = .trace
            return logger
        }

        var text: String { lines.withLock { $0.joined(separator: "\n") } }

        struct Handler: LogHandler {
            let capture: LogCapture
            var logLevel: Logger.Level = .trace
            var metadata: Logger.Metadata = [:]
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                let all = metadata.merging(event.metadata ?? [:]) { $1 }
                let line = "\(event.level) \(event.message) " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                capture.lines.withLock { $0.append(line) }
            }
        }
    }

    @Test func requestLogsCarryIdsAndStatusButNoSecrets() async throws {
        let capture = LogCapture()
        let server = try await TestServer.start(logRequests: true, logger: capture.logger())
        defer { Task { await server.stop() } }
        let key = try await server.addUser(email: "ada@example.com", password: "secret password 1")
        let login = try await RawHTTP.send(
            "POST", server.baseURL, "/v1/session", json: #"{"udacity":{"username":"ada@example.com","password":"secret password 1"}}"#)
        #expect(login.status == 200)
        let requestID = try #require(login.header("X-Request-Id"))
        let session = try #require(((login.json(prefixed: true) as? [String: Any])?["session"] as? [String: Any])?["id"] as? String)
        let cookie = try #require(login.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        let xsrf = String(cookie.dropFirst("XSRF-TOKEN=".count))
        let post = try await RawHTTP.send(
            "POST", server.baseURL, "/v1/StudentLocation?where=%7B%7D", headers: ["Authorization": "Bearer \(session)"],
            json: #"{"uniqueKey":"\#(key)","latitude":1,"longitude":2,"mapString":"private body text"}"#)
        #expect(post.status == 201)
        let logout = try await RawHTTP.send(
            "DELETE", server.baseURL, "/v1/session", headers: ["Cookie": cookie, "X-XSRF-TOKEN": xsrf])
        #expect(logout.status == 200)

        let text = capture.text
        #expect(text.contains("hb.request.id=\(requestID)"))
        #expect(text.contains("http.route=/v1/session"))
        #expect(text.contains("http.status=201"))
        #expect(text.contains("http.route=/v1/StudentLocation"))
        for secret in ["secret password 1", session, xsrf, "private body text", "where", "Bearer"] {
            #expect(!text.contains(secret), "the log holds \(secret)")
        }
    }

    @Test func metricsCountRequestsByRouteAndStatusWithALatencyHistogram() async throws {
        let server = try await TestServer.start(seedDemo: true, metrics: true)
        defer { Task { await server.stop() } }
        for _ in 0..<3 {
            #expect(try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation?limit=100&order=-updatedAt").status == 200)
        }
        #expect(try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation/nothere0000").status == 404)
        let metrics = try await RawHTTP.send("GET", server.baseURL, "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain") == true)
        let lines = metrics.text.split(separator: "\n").map(String.init)
        let listCount = lines.first {
            $0.hasPrefix("hb_requests") && $0.contains(#"http_route="/v1/StudentLocation""#) && $0.contains(#"http_response_status_code="200""#)
        }
        #expect(listCount?.hasSuffix(" 3") == true, "\(lines.filter { $0.hasPrefix("hb_requests") })")
        #expect(lines.contains { $0.hasPrefix("hb_requests") && $0.contains(#"http_response_status_code="404""#) })
        #expect(lines.contains { $0.hasPrefix("http_server_request_duration_bucket") || $0.hasPrefix("http_server_request_duration_seconds_bucket") })
        // Errors are the 4xx and 5xx answers, each counted once; a 200 has no error line.
        #expect(lines.contains { $0.hasPrefix("hb_request_errors") && $0.contains(#"error_type="404""#) && $0.hasSuffix(" 1") })
        #expect(!lines.contains { $0.hasPrefix("hb_request_errors") && $0.contains(#"error_type="200""#) })
        #expect(lines.contains { $0.hasPrefix(#"http_server_active_requests{http_request_method="GET"}"#) })

        // The database pool: its size, operations in flight, time per operation.
        let poolSize = lines.first { $0.hasPrefix(#"onthemap_db_pool_connections{backend="sqlite"} "#) }
        #expect(poolSize.flatMap { Double($0.split(separator: " ").last ?? "") } == 6, "\(lines.filter { $0.hasPrefix("onthemap_db") })")
        #expect(lines.contains { $0.hasPrefix(#"onthemap_db_operations_in_flight{backend="sqlite"}"#) })
        #expect(lines.contains {
            $0.hasPrefix("onthemap_db_operation_duration_seconds_bucket") && $0.contains(#"operation="location""#)
                && $0.contains(#"backend="sqlite""#)
        })
    }

    /// `/healthz` asks the database for a row: 200 while it answers, 503 (no internals) when not.
    @Test func healthSaysWhetherTheDatabaseAnswers() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let healthy = try await RawHTTP.send("GET", server.baseURL, "/healthz")
        #expect(healthy.status == 200)
        #expect(healthy.text == #"{"status":"ok"}"#)

        let database = try DatabaseQueue(path: server.configuration.databasePath)
        try await database.write { try $0.execute(sql: "DROP TABLE student_location") }
        let broken = try await RawHTTP.send("GET", server.baseURL, "/healthz")
        #expect(broken.status == 503)
        #expect(broken.text == #"{"status":"unavailable"}"#)
    }

    /// `/metrics` is the operator's: loopback clients only by default (a client behind the proxy,
    /// named by X-Forwarded-For, is not one), or anyone with the `--metrics-token` bearer token.
    @Test func metricsAnswerLoopbackOrTheOperatorsToken() async throws {
        let open = try await TestServer.start(trustProxy: true, metrics: true)
        defer { Task { await open.stop() } }
        #expect(try await RawHTTP.send("GET", open.baseURL, "/metrics").status == 200)
        let outside = try await RawHTTP.send("GET", open.baseURL, "/metrics", headers: ["X-Forwarded-For": "203.0.113.5"])
        #expect(outside.status == 403)
        #expect(!outside.text.contains("hb_requests"))

        let keyed = try await TestServer.start(metrics: true) { $0.metricsToken = "s3cret-token" }
        defer { Task { await keyed.stop() } }
        #expect(try await RawHTTP.send("GET", keyed.baseURL, "/metrics").status == 403)
        #expect(try await RawHTTP.send("GET", keyed.baseURL, "/metrics", headers: ["Authorization": "Bearer s3cret-tokeX"]).status == 403)
        let good = try await RawHTTP.send("GET", keyed.baseURL, "/metrics", headers: ["Authorization": "Bearer s3cret-token"])
        #expect(good.status == 200)
        #expect(good.text.contains("hb_requests"))
    }

    @Test func metricsAreOffUnlessAsked() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        #expect(try await RawHTTP.send("GET", server.baseURL, "/metrics").status == 404)
    }

    @Test func theServedOpenAPIDocumentIsTheOneInDocs() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let reply = try await RawHTTP.send("GET", server.baseURL, "/openapi.json")
        #expect(reply.status == 200)
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Docs/openapi.json")
        let expected = try Data(contentsOf: docs)
        #expect(reply.body + Data("\n".utf8) == expected)
        let object = try #require(reply.json() as? [String: Any])
        #expect(object["openapi"] as? String == "3.1.0")
    }
}
