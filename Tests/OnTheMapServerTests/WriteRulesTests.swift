import Foundation
import ServerTestSupport
import Testing

/// Who may write, and what is refused — checking that a refused request writes nothing.
@Suite struct WriteRulesTests {
    static let path = "/v1/StudentLocation"

    /// A valid POST body for `key`, with some fields replaced by raw JSON values.
    static func body(key: String, replacing overrides: KeyValuePairs<String, String> = [:]) -> String {
        var fields: [(String, String)] = [
            ("uniqueKey", "\"\(key)\""), ("firstName", #""Ada""#), ("lastName", #""Lovelace""#),
            ("mapString", #""Mountain View, CA""#), ("mediaURL", #""https://example.com""#), ("latitude", "37.386052"),
            ("longitude", "-122.083851"),
        ]
        for (name, value) in overrides {
            if let index = fields.firstIndex(where: { $0.0 == name }) {
                fields[index].1 = value
            } else {
                fields.append((name, value))
            }
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    /// Logs in and returns the session id.
    static func logIn(_ server: TestServer, _ email: String) async throws -> String {
        let reply = try await RawHTTP.send(
            "POST", server.baseURL, "/v1/session", json: #"{"udacity":{"username":"\#(email)","password":"correct horse"}}"#)
        let object = try #require(reply.json(prefixed: true) as? [String: Any])
        return try #require((object["session"] as? [String: Any])?["id"] as? String)
    }

    static func count(_ server: TestServer) async throws -> Int {
        try await server.locationCount()
    }

    @Test(arguments: TestBackend.available, ["/v1/StudentLocation", "/parse/classes/StudentLocation"])
    func ownerOnlyWritesWithoutOpenWrites(backend: TestBackend, path: String) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com")
        _ = try await server.addUser(email: "bob@example.com")
        let ada = try await Self.logIn(server, "ada@example.com")
        let bob = try await Self.logIn(server, "bob@example.com")

        let anonymous = try await RawHTTP.send("POST", server.baseURL, path, json: Self.body(key: adaKey))
        #expect(anonymous.status == 403)
        #expect((anonymous.json() as? [String: Any])?["code"] as? Int == 209)
        let forged = try await RawHTTP.send(
            "POST", server.baseURL, path, headers: ["Authorization": "Bearer not-a-session"], json: Self.body(key: adaKey))
        #expect(forged.status == 403)
        let asBob = try await RawHTTP.send(
            "POST", server.baseURL, path, headers: ["Authorization": "Bearer \(bob)"], json: Self.body(key: adaKey))
        #expect(asBob.status == 403)
        #expect((asBob.json() as? [String: Any])?["code"] as? Int == 119)
        #expect(try await Self.count(server) == 0)

        let asAda = try await RawHTTP.send(
            "POST", server.baseURL, path, headers: ["Authorization": "Bearer \(ada)"], json: Self.body(key: adaKey))
        #expect(asAda.status == 201)
        let objectId = try #require((asAda.json() as? [String: Any])?["objectId"] as? String)

        let putAnonymous = try await RawHTTP.send("PUT", server.baseURL, "\(path)/\(objectId)", json: #"{"mapString":"x"}"#)
        #expect(putAnonymous.status == 403)
        let putBob = try await RawHTTP.send(
            "PUT", server.baseURL, "\(path)/\(objectId)", headers: ["Authorization": "Bearer \(bob)"], json: #"{"mapString":"x"}"#)
        #expect(putBob.status == 403)
        let steal = try await RawHTTP.send(
            "PUT", server.baseURL, "\(path)/\(objectId)", headers: ["Authorization": "Bearer \(ada)"],
            json: #"{"uniqueKey":"somebody-else"}"#)
        #expect(steal.status == 403)
        let row = try await RawHTTP.send("GET", server.baseURL, "\(path)/\(objectId)")
        #expect((row.json() as? [String: Any])?["mapString"] as? String == "Mountain View, CA")
        #expect((row.json() as? [String: Any])?["uniqueKey"] as? String == adaKey)

        let putAda = try await RawHTTP.send(
            "PUT", server.baseURL, "\(path)/\(objectId)", headers: ["Authorization": "Bearer \(ada)"], json: #"{"mapString":"Cupertino, CA"}"#)
        #expect(putAda.status == 200)
        let unknown = try await RawHTTP.send(
            "PUT", server.baseURL, "\(path)/NoSuchRow1", headers: ["Authorization": "Bearer \(ada)"], json: #"{"mapString":"x"}"#)
        #expect(unknown.status == 404)
        #expect(unknown.text == #"{"code":101,"error":"Object not found."}"#)

        let deleteBob = try await RawHTTP.send("DELETE", server.baseURL, "\(path)/\(objectId)", headers: ["Authorization": "Bearer \(bob)"])
        #expect(deleteBob.status == 403)
        let deleteAda = try await RawHTTP.send("DELETE", server.baseURL, "\(path)/\(objectId)", headers: ["Authorization": "Bearer \(ada)"])
        #expect(deleteAda.status == 200)
        #expect(try await Self.count(server) == 0)
    }

    struct Refusal: Sendable, CustomStringConvertible {
        var name: String
        var method = "POST"
        var path = "/v1/StudentLocation"
        var body: String
        var status: Int
        var expected: String
        var prefixed = false
        var description: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "wrong password", path: "/v1/session", body: #"{"udacity":{"username":"ada@example.com","password":"nope"}}"#,
            status: 403, expected: #"{"status":403,"error":"Account not found or invalid credentials."}"#, prefixed: true),
        Refusal(
            name: "unknown account", path: "/api/session", body: #"{"udacity":{"username":"who@example.com","password":"x"}}"#,
            status: 403, expected: #"{"status":403,"error":"Account not found or invalid credentials."}"#, prefixed: true),
        Refusal(
            name: "two credentials", path: "/v1/session",
            body: #"{"udacity":{"username":"ada@example.com","password":"correct horse"},"facebook_mobile":{"access_token":"t"}}"#,
            status: 400, expected: #"{"status":400,"error":"Did not specify exactly one credential."}"#, prefixed: true),
        Refusal(
            name: "no credential", path: "/v1/session", body: #"{}"#,
            status: 400, expected: #"{"status":400,"error":"Did not specify exactly one credential."}"#, prefixed: true),
        Refusal(
            name: "missing username", path: "/v1/session", body: #"{"udacity":{"password":"x"}}"#, status: 400,
            expected: #"{"status":400,"parameter":"udacity.username","error":"trails.Error 400: Missing parameter 'username'"}"#,
            prefixed: true),
        Refusal(
            name: "missing password", path: "/v1/session", body: #"{"udacity":{"username":"ada@example.com"}}"#, status: 400,
            expected: #"{"status":400,"parameter":"udacity.password","error":"trails.Error 400: Missing parameter 'password'"}"#,
            prefixed: true),
        Refusal(name: "malformed JSON", body: #"{"uniqueKey": "1234", "#, status: 400, expected: #"{"code":107,"error":"invalid JSON"}"#),
        Refusal(
            name: "latitude as a string", body: WriteRulesTests.body(key: "1234", replacing: ["latitude": #""abc""#]), status: 400,
            expected: #"{"code":111,"error":"schema mismatch for StudentLocation.latitude; expected Number but got String"}"#),
        Refusal(
            name: "latitude out of range", body: WriteRulesTests.body(key: "1234", replacing: ["latitude": "200"]), status: 400,
            expected: #"{"code":142,"error":"latitude must be a number between -90 and 90"}"#),
        Refusal(
            name: "longitude out of range", body: WriteRulesTests.body(key: "1234", replacing: ["longitude": "-180.5"]), status: 400,
            expected: #"{"code":142,"error":"longitude must be a number between -180 and 180"}"#),
        Refusal(
            name: "longitude beyond a double", body: WriteRulesTests.body(key: "1234", replacing: ["longitude": "-1e400"]),
            status: 400, expected: #"{"code":107,"error":"invalid JSON"}"#),
        Refusal(
            name: "NaN is not JSON", body: WriteRulesTests.body(key: "1234", replacing: ["latitude": "NaN"]),
            status: 400, expected: #"{"code":107,"error":"invalid JSON"}"#),
        Refusal(
            name: "no uniqueKey", body: #"{"latitude":1,"longitude":2}"#, status: 400,
            expected: #"{"code":142,"error":"uniqueKey is required for a Student Location"}"#),
        Refusal(
            name: "no latitude", body: #"{"uniqueKey":"1234","longitude":2}"#, status: 400,
            expected: #"{"code":142,"error":"latitude is required for a Student Location"}"#),
        Refusal(
            name: "string over 1 KB", body: WriteRulesTests.body(key: "1234", replacing: ["mapString": "\"\(String(repeating: "x", count: 1025))\""]),
            status: 400, expected: #"{"code":142,"error":"mapString is longer than 1024 bytes"}"#),
        Refusal(
            name: "name as a number", body: WriteRulesTests.body(key: "1234", replacing: ["firstName": "7"]), status: 400,
            expected: #"{"code":111,"error":"schema mismatch for StudentLocation.firstName; expected String but got Number"}"#),
        Refusal(
            name: "objectId in a POST", body: WriteRulesTests.body(key: "1234", replacing: ["objectId": #""abc""#]), status: 400,
            expected: #"{"code":105,"error":"objectId is an invalid field name."}"#),
        Refusal(
            name: "NUL in a string", body: WriteRulesTests.body(key: "1234", replacing: ["lastName": #""a\u0000b""#]),
            status: 400, expected: #"{"code":142,"error":"lastName contains a NUL character"}"#),
        Refusal(
            name: "body is an array", body: "[1,2]", status: 400, expected: #"{"code":107,"error":"the body must be a JSON object"}"#),
        Refusal(
            name: "body over 64 KB", body: WriteRulesTests.body(key: "1234", replacing: ["pad": "\"\(String(repeating: "x", count: 70_000))\""]),
            status: 413, expected: #"{"error":"request body larger than 65536 bytes"}"#),
        Refusal(
            name: "unknown where operator", method: "GET", path: #"/v1/StudentLocation?where=%7B%22latitude%22%3A%7B%22%24near%22%3A1%7D%7D"#,
            body: "", status: 400, expected: #"{"code":107,"error":"bad constraint: $near"}"#),
    ]

    @Test(arguments: TestBackend.available, refusals)
    func refusesAndWritesNothing(backend: TestBackend, refusal: Refusal) async throws {
        let server = try await TestServer.start(backend: backend, openWrites: true)
        defer { Task { await server.stop() } }
        _ = try await server.addUser(email: "ada@example.com")
        let reply = try await RawHTTP.send(
            refusal.method, server.baseURL, refusal.path, json: refusal.body.isEmpty ? nil : refusal.body)
        #expect(reply.status == refusal.status)
        let expectedText = (refusal.prefixed ? ")]}'\n" : "") + refusal.expected
        let expectedJSON = try JSONSerialization.jsonObject(with: Data(refusal.expected.utf8)) as? NSDictionary
        #expect(reply.json(prefixed: refusal.prefixed) as? NSDictionary == expectedJSON, "\(reply.text) vs \(expectedText)")
        #expect(try await Self.count(server) == 0)
    }

    @Test(arguments: TestBackend.available)
    func xsrfHeaderMustMatchTheCookie(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        _ = try await server.addUser(email: "ada@example.com")
        let login = try await RawHTTP.send(
            "POST", server.baseURL, "/api/session", json: #"{"udacity":{"username":"ada@example.com","password":"correct horse"}}"#)
        let cookie = try #require(login.header("Set-Cookie"))
        let token = String(cookie.dropFirst("XSRF-TOKEN=".count).prefix { $0 != ";" })
        let session = try #require(((login.json(prefixed: true) as? [String: Any])?["session"] as? [String: Any])?["id"] as? String)

        let mismatch = try await RawHTTP.send("DELETE", server.baseURL, "/api/session", headers: ["X-XSRF-TOKEN": "forged", "Cookie": "XSRF-TOKEN=\(token)"])
        #expect(mismatch.status == 403)
        let noHeader = try await RawHTTP.send("DELETE", server.baseURL, "/api/session", headers: ["Cookie": "XSRF-TOKEN=\(token)"])
        #expect(noHeader.status == 403)
        // Still logged in: a write with the session works.
        let key = try #require(((login.json(prefixed: true) as? [String: Any])?["account"] as? [String: Any])?["key"] as? String)
        let post = try await RawHTTP.send(
            "POST", server.baseURL, Self.path, headers: ["Authorization": "Bearer \(session)"], json: Self.body(key: key))
        #expect(post.status == 201)
        let bearerLogout = try await RawHTTP.send("DELETE", server.baseURL, "/v1/session", headers: ["Authorization": "Bearer \(session)"])
        #expect(bearerLogout.status == 200)
        let after = try await RawHTTP.send(
            "POST", server.baseURL, Self.path, headers: ["Authorization": "Bearer \(session)"], json: Self.body(key: key))
        #expect(after.status == 403)
    }

    @Test(arguments: TestBackend.available)
    func signUpValidates(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        let cases: [(String, Int)] = [
            (#"{"email":"a@b.c","password":"long enough","first_name":"A","last_name":"B"}"#, 201),
            (#"{"email":"A@B.C","password":"long enough","first_name":"A","last_name":"B"}"#, 409),
            (#"{"email":"not an email","password":"long enough","first_name":"A","last_name":"B"}"#, 400),
            (#"{"email":"x@y.z","password":"short","first_name":"A","last_name":"B"}"#, 400),
            (#"{"email":"x@y.z","password":"long enough","first_name":"","last_name":"B"}"#, 400),
            (#"{"email":"x@y.z","password":"long enough"}"#, 400),
        ]
        for (body, status) in cases {
            let reply = try await RawHTTP.send("POST", server.baseURL, "/v1/users", json: body)
            #expect(reply.status == status, "\(body) → \(reply.text)")
            #expect(reply.text.hasPrefix(")]}'\n"))
        }
    }
}
