import Foundation
import OnTheMapServer
import ServerTestSupport
import Testing

/// Docs/Access.md against real servers (SQLite, and PostgreSQL when available): the rule, the
/// session cookie, fair share, moderation, "your data is yours" and the audit log.
@Suite struct AccessTests {
    static let path = "/v1/StudentLocation"
    static let newest = "/v1/StudentLocation?limit=100&order=-updatedAt&count=1"

    static func bearer(_ session: String) -> [String: String] { ["Authorization": "Bearer \(session)"] }

    static func object(_ reply: RawHTTP.Reply, prefixed: Bool = false) -> [String: Any] {
        reply.json(prefixed: prefixed) as? [String: Any] ?? [:]
    }

    static func code(_ reply: RawHTTP.Reply) -> Int? { object(reply)["code"] as? Int }

    /// Posts a row for `key` with `session`; returns its objectId.
    static func post(_ server: TestServer, key: String, session: String, place: String = "Lisbon") async throws
        -> String
    {
        let reply = try await RawHTTP.send(
            "POST", server.baseURL, path, headers: bearer(session),
            json: WriteRulesTests.body(key: key, replacing: ["mapString": "\"\(place)\""]))
        #expect(reply.status == 201, "\(reply.text)")
        return try #require(object(reply)["objectId"] as? String)
    }

    /// The list and count a caller sees (`headers`: its credentials).
    static func list(_ server: TestServer, headers: [String: String] = [:]) async throws -> (
        rows: [[String: Any]], count: Int?
    ) {
        let reply = try await RawHTTP.send("GET", server.baseURL, newest, headers: headers)
        #expect(reply.status == 200)
        return (try #require(reply.results), object(reply)["count"] as? Int)
    }

    static func ids(_ rows: [[String: Any]]) -> Set<String> { Set(rows.compactMap { $0["objectId"] as? String }) }

    static func audit(_ server: TestServer) async throws -> [String] {
        try await server.withDatabase { try await $0.auditLog(since: nil) }.map {
            "\($0.actor) \($0.action) \($0.target)"
        }
    }

    /// A student deletes their pin (gone from lists, the cache and counts), exports, then deletes
    /// their account: rows and sessions go, and the old session is refused.
    @Test(arguments: TestBackend.available)
    func studentDeletesPinExportsAndDeletesAccount(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend, listCacheSeconds: 3600)
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com")
        let bobKey = try await server.addUser(email: "bob@example.com")
        let ada = try await WriteRulesTests.logIn(server, "ada@example.com")
        let bob = try await WriteRulesTests.logIn(server, "bob@example.com")
        let first = try await Self.post(server, key: adaKey, session: ada)
        let bobs = try await Self.post(server, key: bobKey, session: bob, place: "Porto")
        #expect(try await Self.list(server).count == 2)  // the public answer is now cached

        let notHers = try await RawHTTP.send(
            "DELETE", server.baseURL, "\(Self.path)/\(bobs)", headers: Self.bearer(ada))
        #expect(notHers.status == 403 && Self.code(notHers) == 119)
        let delete = try await RawHTTP.send(
            "DELETE", server.baseURL, "\(Self.path)/\(first)", headers: Self.bearer(ada))
        #expect(delete.status == 200)
        let after = try await Self.list(server)
        #expect(Self.ids(after.rows) == [bobs] && after.count == 1)
        #expect(try await RawHTTP.send("GET", server.baseURL, "\(Self.path)/\(first)").status == 404)

        let second = try await Self.post(server, key: adaKey, session: ada, place: "Faro")
        let export = try await RawHTTP.send(
            "GET", server.baseURL, "/v1/users/\(adaKey)/export", headers: Self.bearer(ada))
        #expect(export.status == 200)
        let exported = Self.object(export, prefixed: true)
        #expect((exported["account"] as? [String: Any])?["email"] as? String == "ada@example.com")
        #expect(
            ((exported["locations"] as? [[String: Any]]) ?? []).compactMap { $0["objectId"] as? String } == [second])
        let othersExport = try await RawHTTP.send(
            "GET", server.baseURL, "/api/users/\(adaKey)/export", headers: Self.bearer(bob))
        #expect(othersExport.status == 403)

        let wrong = try await RawHTTP.send(
            "DELETE", server.baseURL, "/v1/users/\(adaKey)", headers: Self.bearer(ada),
            json: #"{"password":"not it at all"}"#)
        #expect(wrong.status == 403)
        let gone = try await RawHTTP.send(
            "DELETE", server.baseURL, "/api/users/\(adaKey)", headers: Self.bearer(ada),
            json: #"{"password":"correct horse"}"#)
        #expect(gone.status == 200, "\(gone.text)")
        let deleted = try #require(Self.object(gone, prefixed: true)["deleted"] as? [String: Any])
        #expect(deleted["locations"] as? Int == 1 && deleted["sessions"] as? Int == 1)
        #expect(Self.ids(try await Self.list(server).rows) == [bobs])
        let stale = try await RawHTTP.send(
            "POST", server.baseURL, Self.path, headers: Self.bearer(ada), json: WriteRulesTests.body(key: adaKey))
        #expect(stale.status == 403 && Self.code(stale) == 209)
        #expect(try await Self.audit(server) == ["\(adaKey) delete-account \(adaKey)"])
    }

    /// 100 POSTs at once from one account leave at most the row limit; the rest are 119 or 155.
    /// Then the write limit: past it, 429 with code 155 and Retry-After.
    @Test(arguments: TestBackend.available)
    func fairShareLimitsRowsAndWrites(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com")
        let ada = try await WriteRulesTests.logIn(server, "ada@example.com")
        let urlSession = RawHTTP.makeSession(connectionsPerHost: 16)
        let statuses = try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
            for _ in 0..<100 {
                group.addTask {
                    let reply = try await RawHTTP.send(
                        "POST", server.baseURL, Self.path, headers: Self.bearer(ada),
                        json: WriteRulesTests.body(key: adaKey),
                        using: urlSession)
                    return (reply.status, Self.code(reply))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let created = statuses.filter { $0.0 == 201 }.count
        #expect(created == 5)
        #expect(try await server.locationCount() == 5)
        #expect(statuses.allSatisfy { $0.0 == 201 || ($0.0 == 403 && $0.1 == 119) || ($0.0 == 429 && $0.1 == 155) })
        let rowLimit = try await RawHTTP.send(
            "POST", server.baseURL, Self.path, headers: Self.bearer(ada), json: WriteRulesTests.body(key: adaKey))
        #expect(
            rowLimit.status == 429
                || Self.object(rowLimit)["error"] as? String
                    == "This account already has 5 locations on the map, the most one account may have. Update or delete one of them."
        )
        #expect(statuses.contains { $0.0 == 429 }, "100 writes in a minute pass the 30 allowed")
        let limited = statuses.first { $0.0 == 429 }
        #expect(limited?.1 == 155)

        let strict = try await TestServer.start(backend: backend) { $0.maxWritesPerMinute = 2 }
        defer { Task { await strict.stop() } }
        let bobKey = try await strict.addUser(email: "bob@example.com")
        let bob = try await WriteRulesTests.logIn(strict, "bob@example.com")
        let row = try await Self.post(strict, key: bobKey, session: bob)
        let put = try await RawHTTP.send(
            "PUT", strict.baseURL, "\(Self.path)/\(row)", headers: Self.bearer(bob), json: #"{"mapString":"A"}"#)
        #expect(put.status == 200)
        let third = try await RawHTTP.send(
            "PUT", strict.baseURL, "\(Self.path)/\(row)", headers: Self.bearer(bob), json: #"{"mapString":"B"}"#)
        #expect(third.status == 429 && Self.code(third) == 155)
        let retry = try #require(third.header("Retry-After").flatMap(Int.init))
        #expect((1...60).contains(retry))
        #expect(
            (Self.object(third)["error"] as? String)
                == "Too many changes from this account. Try again in \(retry) seconds.")
    }

    /// A moderator hides a row: gone for others (lists, counts, single reads, the cache), shown
    /// marked to its owner; a student cannot hide; unhide and a moderator's delete; all audited.
    @Test(arguments: TestBackend.available)
    func moderatorHidesUnhidesAndDeletes(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend, listCacheSeconds: 3600)
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com")
        _ = try await server.addUser(email: "bob@example.com")
        let modKey = try await server.withDatabase {
            try await $0.addUser(
                email: "mod@example.com", password: "correct horse", firstName: "M", lastName: "Od", role: "moderator")
        }
        let ada = try await WriteRulesTests.logIn(server, "ada@example.com")
        let bob = try await WriteRulesTests.logIn(server, "bob@example.com")
        let mod = try await WriteRulesTests.logIn(server, "mod@example.com")
        let row = try await Self.post(server, key: adaKey, session: ada)
        #expect(try await Self.list(server).count == 1)

        let byStudent = try await RawHTTP.send(
            "POST", server.baseURL, "\(Self.path)/\(row)/hide", headers: Self.bearer(bob), json: #"{"reason":"spam"}"#)
        #expect(byStudent.status == 403 && Self.code(byStudent) == 119)
        let anonymous = try await RawHTTP.send(
            "POST", server.baseURL, "\(Self.path)/\(row)/hide", json: #"{"reason":"spam"}"#)
        #expect(anonymous.status == 403 && Self.code(anonymous) == 209)
        let noReason = try await RawHTTP.send(
            "POST", server.baseURL, "\(Self.path)/\(row)/hide", headers: Self.bearer(mod), json: "{}")
        #expect(noReason.status == 400)
        let hide = try await RawHTTP.send(
            "POST", server.baseURL, "\(Self.path)/\(row)/hide", headers: Self.bearer(mod),
            json: #"{"reason":"not a real place"}"#)
        #expect(hide.status == 200 && Self.object(hide)["updatedAt"] is String)

        for headers in [[:], Self.bearer(bob)] {
            let seen = try await Self.list(server, headers: headers)
            #expect(seen.rows.isEmpty && seen.count == 0)
            #expect(
                try await RawHTTP.send("GET", server.baseURL, "\(Self.path)/\(row)", headers: headers).status == 404)
        }
        let own = try await Self.list(server, headers: Self.bearer(ada))
        #expect(own.count == 1 && own.rows.first?["hidden"] as? Bool == true)
        #expect(own.rows.first?["hiddenReason"] as? String == "not a real place")
        #expect(try await Self.list(server).rows.isEmpty, "the owner's answer is never cached for others")
        #expect(try await Self.list(server, headers: Self.bearer(mod)).count == 1)

        let unhide = try await RawHTTP.send(
            "POST", server.baseURL, "\(Self.path)/\(row)/unhide", headers: Self.bearer(mod), json: "{}")
        #expect(unhide.status == 200)
        let shown = try await Self.list(server)
        #expect(shown.count == 1 && shown.rows.first?["hidden"] == nil)
        let modDelete = try await RawHTTP.send(
            "DELETE", server.baseURL, "\(Self.path)/\(row)", headers: Self.bearer(mod))
        #expect(modDelete.status == 200)
        #expect(try await Self.list(server).count == 0)
        #expect(
            try await Self.audit(server) == [
                "operator role \(modKey)", "\(modKey) hide \(row)", "\(modKey) unhide \(row)",
                "\(modKey) delete-location \(row)",
            ])
    }

    /// Suspending ends the account's sessions, refuses its login with a clear message and hides
    /// its rows; unsuspending shows them again. The command line's acts are audited too.
    @Test(arguments: TestBackend.available)
    func suspensionEndsSessionsAndHidesRows(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend, listCacheSeconds: 3600)
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com")
        let ada = try await WriteRulesTests.logIn(server, "ada@example.com")
        let row = try await Self.post(server, key: adaKey, session: ada)
        #expect(try await Self.list(server).count == 1)

        _ = try await server.withDatabase {
            try await $0.setSuspended(keyOrEmail: "ada@example.com", suspended: true, reason: "spam")
        }
        let write = try await RawHTTP.send(
            "PUT", server.baseURL, "\(Self.path)/\(row)", headers: Self.bearer(ada), json: #"{"mapString":"x"}"#)
        #expect(write.status == 403 && Self.code(write) == 209)
        let login = try await RawHTTP.send(
            "POST", server.baseURL, "/v1/session",
            json: #"{"udacity":{"username":"ada@example.com","password":"correct horse"}}"#)
        #expect(login.status == 403)
        #expect((Self.object(login, prefixed: true)["error"] as? String)?.contains("suspended") == true)
        // The server hears of other processes' writes only within the cache's lifetime on SQLite:
        // the suspension came from beside it, so ask past the cache (a query it never saw).
        let hidden = try await RawHTTP.send("GET", server.baseURL, Self.newest + "&skip=0")
        #expect(hidden.results?.isEmpty == true)
        let rows = try await server.withDatabase { try await $0.locations(account: nil, hiddenOnly: true) }
        #expect(rows.map(\.objectId) == [row] && rows.first?.hiddenReason == "account suspended")

        _ = try await server.withDatabase { try await $0.setSuspended(keyOrEmail: adaKey, suspended: false) }
        let back = try await RawHTTP.send("GET", server.baseURL, Self.newest + "&skip=0&keys=mapString")
        #expect(back.results?.count == 1)
        #expect(try await WriteRulesTests.logIn(server, "ada@example.com").isEmpty == false)
        try await server.withDatabase { try await $0.setHidden(objectId: row, reason: "cli") }
        try await server.withDatabase { try await $0.setHidden(objectId: row, reason: nil) }
        try await server.withDatabase { try await $0.deleteLocation(objectId: row) }
        #expect(
            try await Self.audit(server) == [
                "operator suspend \(adaKey)", "operator unsuspend \(adaKey)", "operator hide \(row)",
                "operator unhide \(row)",
                "operator delete-location \(row)",
            ])
    }

    /// `--open-writes` is the 2015 Parse contract: a generic Parse client's POST, GET, PUT and
    /// DELETE, with the app keys and no session, all pass; without the flag the writes are refused.
    @Test(arguments: TestBackend.available)
    func openWritesPassAGenericParseCycle(backend: TestBackend) async throws {
        let keys = ("app-id", "rest-key")
        let headers = ["X-Parse-Application-Id": keys.0, "X-Parse-REST-API-Key": keys.1]
        let server = try await TestServer.start(backend: backend, openWrites: true, parseKeys: keys)
        defer { Task { await server.stop() } }
        let path = "/parse/classes/StudentLocation"
        let post = try await RawHTTP.send(
            "POST", server.baseURL, path, headers: headers, json: WriteRulesTests.body(key: "1234"))
        #expect(post.status == 201)
        let id = try #require(Self.object(post)["objectId"] as? String)
        #expect(try await RawHTTP.send("GET", server.baseURL, "\(path)/\(id)", headers: headers).status == 200)
        let put = try await RawHTTP.send(
            "PUT", server.baseURL, "\(path)/\(id)", headers: headers, json: #"{"mapString":"Porto"}"#)
        #expect(put.status == 200)
        let delete = try await RawHTTP.send("DELETE", server.baseURL, "\(path)/\(id)", headers: headers)
        #expect(delete.status == 200 && delete.text == "{}")
        #expect(try await RawHTTP.send("GET", server.baseURL, "\(path)/\(id)", headers: headers).status == 404)

        let closed = try await TestServer.start(backend: backend, parseKeys: keys)
        defer { Task { await closed.stop() } }
        let refused = try await RawHTTP.send(
            "POST", closed.baseURL, path, headers: headers, json: WriteRulesTests.body(key: "1234"))
        #expect(refused.status == 403 && Self.code(refused) == 209)
    }

    /// The session cookie: set by login (HttpOnly, SameSite=Strict, Secure behind TLS), cleared
    /// by logout; cookie-only writes pass with application/json, and are refused without it.
    @Test(arguments: TestBackend.available)
    func cookieAuthenticatedWrites(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend, trustProxy: true)
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com")
        let bobKey = try await server.addUser(email: "bob@example.com")
        let bob = try await WriteRulesTests.logIn(server, "bob@example.com")
        let bobs = try await Self.post(server, key: bobKey, session: bob)

        let login = try await RawHTTP.send(
            "POST", server.baseURL, "/api/session", headers: ["X-Forwarded-Proto": "https"],
            json: #"{"udacity":{"username":"ada@example.com","password":"correct horse"}}"#)
        let setCookie = try #require(login.header("Set-Cookie"))
        let id = try #require((Self.object(login, prefixed: true)["session"] as? [String: Any])?["id"] as? String)
        #expect(setCookie.contains("onthemap_session=\(id); Path=/; HttpOnly; SameSite=Strict; Secure"))
        let plain = try await RawHTTP.send(
            "POST", server.baseURL, "/v1/session",
            json: #"{"udacity":{"username":"ada@example.com","password":"correct horse"}}"#)
        #expect(plain.header("Set-Cookie")?.contains("SameSite=Strict; Secure") == false)

        let cookie = ["Cookie": "onthemap_session=\(id)"]
        let post = try await RawHTTP.send(
            "POST", server.baseURL, "/parse/classes/StudentLocation", headers: cookie,
            json: WriteRulesTests.body(key: adaKey))
        #expect(post.status == 201)
        let row = try #require(Self.object(post)["objectId"] as? String)
        let put = try await RawHTTP.send(
            "PUT", server.baseURL, "\(Self.path)/\(row)", headers: cookie, json: #"{"mapString":"Faro"}"#)
        #expect(put.status == 200)
        let others = try await RawHTTP.send(
            "PUT", server.baseURL, "\(Self.path)/\(bobs)", headers: cookie, json: #"{"mapString":"x"}"#)
        #expect(others.status == 403 && Self.code(others) == 119)
        let form = try await RawHTTP.send(
            "POST", server.baseURL.appendingPathComponent("v1/StudentLocation"),
            headers: cookie.merging(["Content-Type": "text/plain"]) { $1 },
            body: Data(WriteRulesTests.body(key: adaKey).utf8))
        #expect(form.status == 403 && Self.code(form) == 209)
        #expect((Self.object(form)["error"] as? String)?.contains("application/json") == true)
        #expect(try await server.locationCount() == 2)

        let me = try await RawHTTP.send("GET", server.baseURL, "/v1/users/\(adaKey)", headers: cookie)
        #expect(Self.object(me, prefixed: true)["role"] as? String == "student")
        let logout = try await RawHTTP.send("DELETE", server.baseURL, "/v1/session", headers: cookie)
        #expect(logout.status == 200)
        #expect(logout.header("Set-Cookie")?.contains("onthemap_session=; Max-Age=0") == true)
        let after = try await RawHTTP.send(
            "PUT", server.baseURL, "\(Self.path)/\(row)", headers: cookie, json: #"{"mapString":"x"}"#)
        #expect(after.status == 403 && Self.code(after) == 209)
    }
}
