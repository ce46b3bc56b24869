import Foundation
import ServerTestSupport
import Testing

/// Two server processes on one PostgreSQL database: no state that matters lives in a process.
@Suite struct TwoInstanceTests {
    @Test(.enabled(if: TestBackend.postgresURL != nil)) func logInOnOnePostOnTheOtherReadFromBoth() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-two-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try await TestBackend.postgres.makeDatabase(in: directory)
        defer { Task { await TestBackend.postgres.dropDatabase(database) } }

        // An hour-long list cache: only the write notification can make the second instance
        // show a row posted through the first in time.
        let first = try await ServerProcess.start(database: database, arguments: ["--list-cache-seconds", "3600"])
        defer { first.terminate() }
        let second = try await ServerProcess.start(database: database, arguments: ["--list-cache-seconds", "3600"])
        defer { second.terminate() }
        let newest = "/v1/StudentLocation?limit=100&order=-updatedAt"
        for server in [first, second] {
            #expect(try await Self.objectIds(server, newest) == [])
        }

        let signUp = try await RawHTTP.send(
            "POST", first.baseURL, "/v1/users",
            json: #"{"email":"ada@example.com","password":"correct horse","first_name":"Ada","last_name":"Lovelace"}"#)
        #expect(signUp.status == 201)
        let login = try await RawHTTP.send(
            "POST", second.baseURL, "/api/session", json: #"{"udacity":{"username":"ada@example.com","password":"correct horse"}}"#)
        let body = try #require(login.json(prefixed: true) as? [String: Any])
        let session = try #require((body["session"] as? [String: Any])?["id"] as? String)
        let key = try #require((body["account"] as? [String: Any])?["key"] as? String)

        let post = try await RawHTTP.send(
            "POST", first.baseURL, "/v1/StudentLocation", headers: ["Authorization": "Bearer \(session)"],
            json: #"{"uniqueKey":"\#(key)","firstName":"Ada","lastName":"Lovelace","mapString":"London","mediaURL":"https://ada.dev","latitude":51.5,"longitude":-0.12}"#)
        #expect(post.status == 201)
        let objectId = try #require((post.json() as? [String: Any])?["objectId"] as? String)
        for server in [first, second] {
            #expect(try await Self.objectIds(server, "/v1/StudentLocation?uniqueKey=\(key)") == [objectId])
        }
        // The first instance cleared its cache at its own write; the second heard of it through
        // PostgreSQL (NOTIFY at commit), normally within milliseconds; the 60 s bound only ends a
        // test that would otherwise wait out the hour.
        #expect(try await Self.objectIds(first, newest) == [objectId])
        let seen = try await poll(until: .now + .seconds(60), { try await Self.objectIds(second, newest) }) {
            $0 == [objectId]
        }
        #expect(seen == [objectId])

        // Logging out on one instance ends the session on the other.
        let logout = try await RawHTTP.send("DELETE", first.baseURL, "/v1/session", headers: ["Authorization": "Bearer \(session)"])
        #expect(logout.status == 200)
        let after = try await RawHTTP.send(
            "PUT", second.baseURL, "/v1/StudentLocation/\(objectId)", headers: ["Authorization": "Bearer \(session)"],
            json: #"{"mapString":"Paris"}"#)
        #expect(after.status == 403)
    }

    private static func objectIds(_ server: ServerProcess, _ pathAndQuery: String) async throws -> [String]? {
        let read = try await RawHTTP.send("GET", server.baseURL, pathAndQuery)
        return read.results?.compactMap { $0["objectId"] as? String }
    }
}
