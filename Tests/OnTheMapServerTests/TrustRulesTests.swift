import Foundation
import Logging
import OnTheMapServer
import ServerStorage
import ServerTestSupport
import Testing

/// The request-wide trust rules (Docs/Security.md, "Trust rules"), each tried as an attacker
/// would, on SQLite and PostgreSQL.
@Suite struct TrustRulesTests {
    static let path = "/v1/StudentLocation"

    static func logIn(_ server: TestServer, _ email: String, contentType: String? = "application/json") async throws
        -> RawHTTP.Reply
    {
        var headers: [String: String] = [:]
        if let contentType { headers["Content-Type"] = contentType }
        return try await RawHTTP.send(
            "POST", URL(string: server.baseURL.absoluteString + "/v1/session")!, headers: headers,
            body: Data(#"{"udacity":{"username":"\#(email)","password":"correct horse"}}"#.utf8))
    }

    static func sessionID(_ reply: RawHTTP.Reply) throws -> String {
        let object = try #require(reply.json(prefixed: true) as? [String: Any])
        return try #require((object["session"] as? [String: Any])?["id"] as? String)
    }

    /// Every `Set-Cookie` of a reply (URLSession folds them into one header, comma-separated).
    static func cookies(_ reply: RawHTTP.Reply) -> String { reply.header("Set-Cookie") ?? "" }

    static func xsrfToken(_ reply: RawHTTP.Reply) throws -> String {
        let all = cookies(reply)
        let start = try #require(all.range(of: "XSRF-TOKEN="))
        return String(all[start.upperBound...].prefix { $0 != ";" })
    }

    /// A row of `key`'s, posted with `session`; its objectId.
    static func post(_ server: TestServer, session: String, key: String) async throws -> String {
        let reply = try await RawHTTP.send(
            "POST", server.baseURL, path, headers: ["Authorization": "Bearer \(session)"],
            json: WriteRulesTests.body(key: key))
        #expect(reply.status == 201, "\(reply.text)")
        return try #require((reply.json() as? [String: Any])?["objectId"] as? String)
    }

    @Test(arguments: TestBackend.available)
    func aMismatchedXSRFHeaderIsRefusedWhateverElseIdentifiesTheRequest(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        let key = try await server.addUser(email: "ada@example.com")
        let login = try await Self.logIn(server, "ada@example.com")
        let session = try Self.sessionID(login)
        let token = try Self.xsrfToken(login)
        let sessionCookie = "onthemap_session=\(session); XSRF-TOKEN=\(token)"

        // The session cookie names the session, but the header is wrong: refused, nobody logged out.
        for path in ["/v1/session", "/api/session"] {
            let forged = try await RawHTTP.send("DELETE", server.baseURL, path, headers: ["X-XSRF-TOKEN": "forged", "Cookie": sessionCookie])
            #expect(forged.status == 403, "\(path): \(forged.text)")
            #expect(forged.text.hasPrefix(")]}'\n"))
        }
        // A bearer token as well: still refused.
        let bearer = try await RawHTTP.send(
            "DELETE", server.baseURL, "/v1/session",
            headers: ["X-XSRF-TOKEN": "forged", "Cookie": "XSRF-TOKEN=\(token)", "Authorization": "Bearer \(session)"])
        #expect(bearer.status == 403)
        // A header without its cookie differs from it too.
        let noCookie = try await RawHTTP.send(
            "DELETE", server.baseURL, "/v1/session", headers: ["X-XSRF-TOKEN": token, "Authorization": "Bearer \(session)"])
        #expect(noCookie.status == 403)
        // Writes too, in the StudentLocation family's style.
        let write = try await RawHTTP.send(
            "POST", server.baseURL, Self.path, headers: ["Authorization": "Bearer \(session)", "X-XSRF-TOKEN": "forged"],
            json: WriteRulesTests.body(key: key))
        #expect(write.status == 403)
        #expect((write.json() as? [String: Any])?["code"] as? Int == 119)
        #expect(try await server.locationCount() == 0)

        // Still logged in; the matching pair (what the original clients send) logs out.
        _ = try await Self.post(server, session: session, key: key)
        let logout = try await RawHTTP.send("DELETE", server.baseURL, "/api/session", headers: ["X-XSRF-TOKEN": token, "Cookie": "XSRF-TOKEN=\(token)"])
        #expect(logout.status == 200, "\(logout.text)")
        let after = try await RawHTTP.send(
            "POST", server.baseURL, Self.path, headers: ["Authorization": "Bearer \(session)"], json: WriteRulesTests.body(key: key))
        #expect(after.status == 403)
    }

    @Test(arguments: TestBackend.available)
    func onlyAJSONLoginSetsTheSessionCookie(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        _ = try await server.addUser(email: "ada@example.com")
        // What the original apps send.
        let json = try await Self.logIn(server, "ada@example.com", contentType: "application/json; charset=utf-8")
        #expect(json.status == 200)
        #expect(Self.cookies(json).contains("onthemap_session="))
        // What a cross-site form can send without a preflight: no session cookie.
        for contentType in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", nil] {
            let form = try await Self.logIn(server, "ada@example.com", contentType: contentType)
            #expect(form.status == 200, "\(contentType ?? "none"): \(form.text)")
            #expect(!Self.cookies(form).contains("onthemap_session="), "\(contentType ?? "none"): \(Self.cookies(form))")
        }
    }

    @Test(arguments: TestBackend.available)
    func aRowTheCallerMayNotSeeIsNotFoundForWritesAsForReads(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com")
        _ = try await server.addUser(email: "bob@example.com")
        let ada = try Self.sessionID(try await Self.logIn(server, "ada@example.com"))
        let bob = try Self.sessionID(try await Self.logIn(server, "bob@example.com"))
        let hidden = try await Self.post(server, session: ada, key: adaKey)
        let shown = try await Self.post(server, session: ada, key: adaKey)
        try await server.withDatabase { try await $0.setHidden(objectId: hidden, reason: "spam") }

        let bearer = ["Authorization": "Bearer \(bob)"]
        let read = try await RawHTTP.send("GET", server.baseURL, "\(Self.path)/\(hidden)", headers: bearer)
        #expect(read.status == 404)
        let put = try await RawHTTP.send("PUT", server.baseURL, "\(Self.path)/\(hidden)", headers: bearer, json: #"{"mapString":"x"}"#)
        #expect(put.status == 404, "\(put.text)")
        #expect((put.json() as? [String: Any])?["code"] as? Int == 101)
        let delete = try await RawHTTP.send("DELETE", server.baseURL, "\(Self.path)/\(hidden)", headers: bearer)
        #expect(delete.status == 404, "\(delete.text)")
        let unknown = try await RawHTTP.send("PUT", server.baseURL, "\(Self.path)/NoSuchRow1", headers: bearer, json: #"{"mapString":"x"}"#)
        #expect(put.text == unknown.text)
        // Another's row that everyone sees is still 403: its existence is no secret.
        let visible = try await RawHTTP.send("PUT", server.baseURL, "\(Self.path)/\(shown)", headers: bearer, json: #"{"mapString":"x"}"#)
        #expect(visible.status == 403)
        #expect(try await server.locationCount() == 2)
        // The owner still writes its hidden row.
        let own = try await RawHTTP.send(
            "PUT", server.baseURL, "\(Self.path)/\(hidden)", headers: ["Authorization": "Bearer \(ada)"], json: #"{"mapString":"y"}"#)
        #expect(own.status == 200)
    }

    @Test(arguments: TestBackend.available)
    func orderHasACapAndNoSQLReachesTheLog(backend: TestBackend) async throws {
        let lines = ObservabilityTests.LogCapture()
        // At the server's own default level (a driver's trace lines quote every statement).
        var logger = lines.logger()
        logger.logLevel = .info
        let server = try await TestServer.start(backend: backend, logger: logger)
        defer { Task { await server.stop() } }
        let many = Array(repeating: "-updatedAt", count: 2500).joined(separator: ",")
        let reply = try await RawHTTP.send("GET", server.baseURL, "\(Self.path)?order=\(many)")
        #expect(reply.status == 400, "\(reply.text.prefix(200))")
        #expect((reply.json() as? [String: Any])?["code"] as? Int == 102)
        #expect(reply.text.contains("at most \(LocationField.allCases.count)"))
        let fine = try await RawHTTP.send("GET", server.baseURL, "\(Self.path)?order=-updatedAt,firstName,lastName")
        #expect(fine.status == 200)
        #expect(!lines.text.contains("SELECT"), "\(lines.text.prefix(500))")
        #expect(!lines.text.contains("ORDER BY"))
    }

    @Test(arguments: TestBackend.available)
    func aNULInACredentialIsRefused(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        let key = try await server.addUser(email: "ada@example.com")
        let bodies = [
            #"{"udacity":{"username":"ada@example.com\u0000junk","password":"correct horse"}}"#,
            #"{"udacity":{"username":"ada@example.com","password":"correct horse\u0000junk"}}"#,
            #"{"facebook_mobile":{"access_token":"abc\u0000def"}}"#,
            #"{"oauth":{"provider":"github","access_token":"abc\u0000def"}}"#,
        ]
        for body in bodies {
            let reply = try await RawHTTP.send("POST", server.baseURL, "/v1/session", json: body)
            #expect(reply.status == 400, "\(body): \(reply.status) \(reply.text)")
            #expect(!Self.cookies(reply).contains("onthemap_session"))
        }
        let signUp = try await RawHTTP.send(
            "POST", server.baseURL, "/v1/users",
            json: #"{"email":"eve@example.com\u0000","password":"long enough","first_name":"E","last_name":"V"}"#)
        #expect(signUp.status == 400)
        // Deleting the account asks for its password: a NUL there is refused too.
        let session = try Self.sessionID(try await Self.logIn(server, "ada@example.com"))
        let delete = try await RawHTTP.send(
            "DELETE", server.baseURL, "/v1/users/\(key)", headers: ["Authorization": "Bearer \(session)"],
            json: #"{"password":"correct horse\u0000x"}"#)
        #expect(delete.status == 400, "\(delete.text)")
        // The server is still up and the account still there.
        let again = try await Self.logIn(server, "ada@example.com")
        #expect(again.status == 200)
    }

    @Test(arguments: TestBackend.available)
    func personalisedAnswersAreMarkedPrivate(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        let key = try await server.addUser(email: "ada@example.com")
        let login = try await Self.logIn(server, "ada@example.com")
        let session = try Self.sessionID(login)
        let bearer = ["Authorization": "Bearer \(session)"]
        let replies = [
            login,
            try await RawHTTP.send("GET", server.baseURL, Self.path, headers: bearer),
            try await RawHTTP.send("GET", server.baseURL, Self.path),
            try await RawHTTP.send("GET", server.baseURL, "/v1/users/\(key)", headers: bearer),
            try await RawHTTP.send("GET", server.baseURL, "/api/users/\(key)", headers: ["Cookie": "onthemap_session=\(session)"]),
            try await RawHTTP.send("GET", server.baseURL, "\(Self.path)/NoSuchRow1", headers: bearer),
        ]
        for reply in replies {
            #expect(reply.header("Cache-Control") == "private", "\(reply.status) \(reply.text.prefix(80))")
            #expect(reply.header("Vary") == "Authorization, Cookie")
        }
    }

    @Test func anUpgradeFromAnotherSitesPageIsRefused() async throws {
        let server = try await TestServer.start(configure: { $0.allowedOrigins = ["https://class.example.org"] })
        defer { Task { await server.stop() } }
        let port = try #require(server.baseURL.port)
        func upgrade(_ headers: [String: String]) -> String {
            do {
                _ = try LiveQueryTestClient(port: port, headers: headers)
                return "101"
            } catch {
                return "\(error)"
            }
        }
        #expect(upgrade([:]) == "101")
        #expect(upgrade(["Origin": "http://127.0.0.1:\(port)"]) == "101")
        #expect(upgrade(["Origin": "https://class.example.org"]) == "101")
        // A refusal is read until the server closes (60 s bound: only a hang reaches it): it is
        // an HTTP answer, not a WebSocket message.
        func refused(_ origin: String) async throws -> String {
            let socket = try RawSocket(port: port)
            socket.send(
                "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: \(origin)\r\n\r\n")
            return String(decoding: await socket.awaitClose() ?? [], as: UTF8.self)
        }
        for origin in ["https://evil.example", "null", "http://127.0.0.1:\(port + 1)", "file://", "https://class.example.org.evil.example"] {
            let answer = try await refused(origin)
            #expect(answer.hasPrefix("HTTP/1.1 403"), "\(origin): \(answer)")
        }
        // The server is still up.
        #expect(upgrade([:]) == "101")
    }
}
