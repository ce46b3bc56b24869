import Foundation
import ServerTestSupport
import Testing

/// The requests of the original project document, byte for byte, against `--open-writes`
/// (the original public read/write) on the legacy and the v1 paths.
@Suite struct SeedDocumentTests {
    struct Paths: Sendable, CustomStringConvertible {
        var session: String
        var locations: String
        var description: String { locations }
    }

    static let eras = [
        Paths(session: "/api/session", locations: "/parse/classes/StudentLocation"),
        Paths(session: "/v1/session", locations: "/v1/StudentLocation"),
        Paths(session: "/api/session", locations: "/1/classes/StudentLocation"),
    ]
    static let parseHeaders = [
        "X-Parse-Application-Id": "QrX47CA9cyuGewLdsL7o5Eb8iug6Em8ye0dnAblr",
        "X-Parse-REST-API-Key": "QuWThTdiRmTux3YaDseUSEpUKo7aBYM737yKd4gY",
    ]
    static let postBody = #"{"uniqueKey": "1234", "firstName": "John", "lastName": "Doe","mapString": "Mountain View, CA", "mediaURL": "https://udacity.com","latitude": 37.386052, "longitude": -122.083851}"#

    @Test(arguments: TestBackend.available, eras)
    func theDocumentsRequestsSucceedWithTheOriginalShapes(backend: TestBackend, paths: Paths) async throws {
        let server = try await TestServer.start(
            backend: backend, openWrites: true, parseKeys: (Self.parseHeaders["X-Parse-Application-Id"]!, Self.parseHeaders["X-Parse-REST-API-Key"]!),
            seedDemo: true)
        defer { Task { await server.stop() } }
        let base = server.baseURL

        // POST session
        let login = try await RawHTTP.send(
            "POST", base, paths.session, headers: ["Accept": "application/json"],
            json: #"{"udacity": {"username": "demo@onthemap.example", "password": "onthemap"}}"#)
        #expect(login.status == 200)
        #expect(login.text.hasPrefix(")]}'\n"))
        let session = try #require(login.json(prefixed: true) as? [String: Any])
        let account = try #require(session["account"] as? [String: Any])
        #expect(account["registered"] as? Bool == true)
        #expect((account["key"] as? String)?.count == 10)
        let sessionObject = try #require(session["session"] as? [String: Any])
        let expiration = try #require(sessionObject["expiration"] as? String)
        #expect(expiration.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$"#, options: .regularExpression) != nil)
        let cookie = try #require(login.header("Set-Cookie"))
        #expect(cookie.hasPrefix("XSRF-TOKEN="))
        #expect(cookie.contains("Path=/"))
        #expect(!cookie.lowercased().contains("secure"))
        let token = String(cookie.dropFirst("XSRF-TOKEN=".count).prefix { $0 != ";" })

        // GET the 100 newest
        let list = try await RawHTTP.send("GET", base, paths.locations + "?limit=100&order=-updatedAt", headers: Self.parseHeaders)
        #expect(list.status == 200)
        #expect(list.text.hasPrefix(#"{"results":["#), "StudentLocation answers carry no prefix")
        let results = try #require(list.results)
        #expect(results.count == 100)
        let stamps = results.compactMap { $0["updatedAt"] as? String }
        #expect(stamps == stamps.sorted(by: >))

        // POST, then GET with where, then PUT
        let created = try await RawHTTP.send("POST", base, paths.locations, headers: Self.parseHeaders, json: Self.postBody)
        #expect(created.status == 201)
        let createdBody = try #require(created.json() as? [String: Any])
        let objectId = try #require(createdBody["objectId"] as? String)
        #expect(objectId.range(of: "^[A-Za-z0-9]{10}$", options: .regularExpression) != nil)
        #expect((createdBody["createdAt"] as? String)?.range(of: #"\.\d{3}Z$"#, options: .regularExpression) != nil)
        #expect(created.header("Location") == "\(base.absoluteString)\(paths.locations)/\(objectId)")

        let query = #"where={"uniqueKey":"1234"}"#.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
        let mine = try await RawHTTP.send("GET", base, paths.locations + "?" + query, headers: Self.parseHeaders)
        let mineRows = try #require(mine.results)
        #expect(mineRows.contains { $0["objectId"] as? String == objectId })
        #expect(mineRows.allSatisfy { $0["uniqueKey"] as? String == "1234" })

        let put = try await RawHTTP.send(
            "PUT", base, paths.locations + "/" + objectId, headers: Self.parseHeaders,
            json: Self.postBody.replacingOccurrences(of: "Mountain View, CA", with: "Cupertino, CA"))
        #expect(put.status == 200)
        #expect((put.json() as? [String: Any])?.keys.sorted() == ["updatedAt"])
        let one = try await RawHTTP.send("GET", base, paths.locations + "/" + objectId, headers: Self.parseHeaders)
        #expect((one.json() as? [String: Any])?["mapString"] as? String == "Cupertino, CA")

        // DELETE session with the XSRF header and cookie
        let logout = try await RawHTTP.send(
            "DELETE", base, paths.session, headers: ["X-XSRF-TOKEN": token, "Cookie": "XSRF-TOKEN=\(token)"])
        #expect(logout.status == 200)
        let logoutBody = try #require(logout.json(prefixed: true) as? [String: Any])
        #expect((logoutBody["session"] as? [String: Any])?["id"] as? String == sessionObject["id"] as? String)
        let again = try await RawHTTP.send(
            "DELETE", base, paths.session, headers: ["X-XSRF-TOKEN": token, "Cookie": "XSRF-TOKEN=\(token)"])
        #expect(again.status == 403, "the session is gone")
    }

    @Test func usersEndpointIsWrappedOnApiAndFlatOnV1() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let key = try await server.addUser(email: "ada@example.com", firstName: "Ada", lastName: "Lovelace")
        let legacy = try await RawHTTP.send("GET", server.baseURL, "/api/users/\(key)")
        let wrapped = try #require((legacy.json(prefixed: true) as? [String: Any])?["user"] as? [String: Any])
        #expect(wrapped["first_name"] as? String == "Ada")
        #expect(wrapped["last_name"] as? String == "Lovelace")
        #expect(wrapped["email"] == nil, "no email without the user's own session")
        let v1 = try await RawHTTP.send("GET", server.baseURL, "/v1/users/\(key)")
        let flat = try #require(v1.json(prefixed: true) as? [String: Any])
        #expect(flat["key"] as? String == key)
        #expect(flat["first_name"] as? String == "Ada")
        let missing = try await RawHTTP.send("GET", server.baseURL, "/v1/users/0000000000")
        #expect(missing.status == 404)
        #expect(missing.text.hasPrefix(")]}'\n"))
    }

    @Test func keyedServerRefusesRequestsWithoutTheParseHeaders() async throws {
        let server = try await TestServer.start(parseKeys: ("app", "rest"))
        defer { Task { await server.stop() } }
        for headers in [[:], ["X-Parse-Application-Id": "app"], ["X-Parse-Application-Id": "app", "X-Parse-REST-API-Key": "wrong"]] {
            let reply = try await RawHTTP.send("GET", server.baseURL, "/parse/classes/StudentLocation", headers: headers)
            #expect(reply.status == 403)
            #expect(reply.text == #"{"error":"unauthorized"}"#)
        }
        let good = try await RawHTTP.send(
            "GET", server.baseURL, "/parse/classes/StudentLocation",
            headers: ["X-Parse-Application-Id": "app", "X-Parse-REST-API-Key": "rest"])
        #expect(good.status == 200)
    }

    /// The keys guard the Parse paths only: `/v1` (which never took them) answers without them,
    /// for reads and for a logged-in owner's write, while `/1` still refuses.
    @Test func keyedServerStillAnswersV1WithoutTheParseHeaders() async throws {
        let server = try await TestServer.start(parseKeys: ("app", "rest"))
        defer { Task { await server.stop() } }
        #expect(try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation?limit=100&order=-updatedAt").status == 200)
        #expect(try await RawHTTP.send("GET", server.baseURL, "/1/classes/StudentLocation").status == 403)
        let signUp = try await RawHTTP.send(
            "POST", server.baseURL, "/v1/users",
            json: #"{"email":"ada@example.com","password":"correct horse","first_name":"Ada","last_name":"Lovelace"}"#)
        let body = try #require(signUp.json(prefixed: true) as? [String: Any])
        let session = try #require((body["session"] as? [String: Any])?["id"] as? String)
        let key = try #require((body["account"] as? [String: Any])?["key"] as? String)
        let post = try await RawHTTP.send(
            "POST", server.baseURL, "/v1/StudentLocation", headers: ["Authorization": "Bearer \(session)"],
            json: #"{"uniqueKey":"\#(key)","firstName":"Ada","lastName":"Lovelace","mapString":"London","mediaURL":"https://ada.dev","latitude":51.5,"longitude":-0.12}"#)
        #expect(post.status == 201, "\(post.text)")
        let objectId = try #require((post.json() as? [String: Any])?["objectId"] as? String)
        #expect(try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation/\(objectId)").status == 200)
    }

    /// The apps' main request on the demo class holds only rows a strict client decodes (every
    /// field present, coordinates in range); the deliberately broken rows are still there, further down.
    @Test func theDemoClassesNewestPageDecodesStrictly() async throws {
        let server = try await TestServer.start(seedDemo: true)
        defer { Task { await server.stop() } }
        let fields = ["objectId", "uniqueKey", "firstName", "lastName", "mapString", "mediaURL", "latitude", "longitude", "createdAt", "updatedAt"]
        func usable(_ row: [String: Any]) -> Bool {
            guard fields.allSatisfy({ row[$0] != nil }), let latitude = row["latitude"] as? Double,
                let longitude = row["longitude"] as? Double
            else { return false }
            return (-90...90).contains(latitude) && (-180...180).contains(longitude)
        }
        let newest = try #require(try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation?limit=100&order=-updatedAt").results)
        #expect(newest.count == 100)
        #expect(newest.filter { !usable($0) }.map { $0["objectId"] as? String ?? "?" } == [])
        let all = try #require(try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation?limit=1000&order=-updatedAt").results)
        #expect(all.filter { !usable($0) }.count == 2)
    }
}
