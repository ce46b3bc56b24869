import Foundation
import ServerTestSupport
import Testing

/// A PostgreSQL database that goes away under a running server (stopped, restarting, dropped) is
/// the database's state, not the request's fault and not a bug: the API answers 503 with
/// `Retry-After` and says so, the server lives on, and the health check says "unavailable".
@Suite struct DatabaseUnavailableTests {
    @Test(.enabled(if: TestBackend.postgresURL != nil)) func aDatabaseThatGoesAwayIsA503AndTheServerLivesOn() async throws {
        let server = try await TestServer.start(backend: .postgres, seedDemo: true, listCacheSeconds: 0)
        defer { Task { await server.stop() } }
        let before = try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation?limit=5")
        #expect(before.status == 200)
        #expect(before.results?.count == 5)

        // Ends every connection the server holds, and no new one can be made.
        await TestBackend.postgres.dropDatabase(server.configuration.databasePath)
        for skip in 0..<3 {
            let reply = try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation?limit=5&skip=\(skip)")
            #expect(reply.status == 503, "\(reply.status): \(reply.text)")
            #expect(reply.header("Retry-After") == "1")
            #expect(reply.text.contains("the database is unavailable"), "\(reply.text)")
            #expect(!reply.text.contains("student_location"), "\(reply.text)")
        }
        let health = try await RawHTTP.send("GET", server.baseURL, "/healthz")
        #expect(health.status == 503, "\(health.status): \(health.text)")
    }
}
