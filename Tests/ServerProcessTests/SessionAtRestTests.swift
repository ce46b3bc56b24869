import Foundation
import ServerTestSupport
import Testing

/// What a stolen database holds: no session id or XSRF token in the clear, and files only the
/// server's user can read.
@Suite struct SessionAtRestTests {
    @Test func theDatabaseFilesHoldNoLiveToken() async throws {
        let server = try await AbuseServer.start(.sqlite)
        defer { Task { await server.stop() } }
        let signUp = try await server.signUp("ada@example.com")
        #expect(signUp.status == 201)
        let login = try await server.logIn("ada@example.com", "correct horse")
        let body = try #require(login.json(prefixed: true) as? [String: Any])
        let id = try #require((body["session"] as? [String: Any])?["id"] as? String)
        let cookie = try #require(login.header("Set-Cookie"))
        let xsrfStart = try #require(cookie.range(of: "XSRF-TOKEN="))
        let xsrf = String(cookie[xsrfStart.upperBound...].prefix { $0 != ";" })
        #expect(id.count == 32 && xsrf.count == 32)

        // The session works, so it is in the database, in some form.
        let me = try await RawHTTP.send(
            "GET", server.process.baseURL, "/v1/users/\((body["account"] as? [String: Any])?["key"] as? String ?? "")",
            headers: ["Authorization": "Bearer \(id)"])
        #expect(me.text.contains("ada@example.com"))

        var bytes = Data()
        for suffix in ["", "-wal", "-shm"] {
            let path = server.database + suffix
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            bytes.append(data)
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(suffix.isEmpty ? "database" : suffix) mode \(String(mode ?? 0, radix: 8))")
        }
        #expect(bytes.count > 0)
        for token in [id, xsrf] {
            #expect(bytes.range(of: Data(token.utf8)) == nil, "a token in the clear in the database files")
        }
    }
}
