import Foundation
import ServerTestSupport
import Testing

/// The text log of `onthemap-server serve`: one line per request, carrying the request id that
/// Hummingbird sets on the request's logger and the answer's `X-Request-Id` repeats.
@Suite struct RequestLogTests {
    @Test func aRequestLineCarriesItsRequestID() async throws {
        let server = try await AbuseServer.start(.sqlite, ["--log-level", "info"])
        defer { Task { await server.stop() } }
        let reply = try await BoundHTTP.send("GET", server.port, "/v1/StudentLocation?limit=1")
        #expect(reply.status == 200)
        let id = try #require(reply.header("X-Request-Id"))
        // The line is written before the answer leaves; the pipe may deliver it a moment later.
        let deadline = Date().addingTimeInterval(10)
        var line: Substring?
        while line == nil, Date() < deadline {
            line = server.process.logTail.split(separator: "\n").first { $0.contains("hb.request.id=\(id)") }
            if line == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        let logged = try #require(line, "no log line with the request id \(id) in:\n\(server.process.logTail)")
        #expect(logged.contains(" info onthemap-server:"))
        #expect(logged.contains("http.route=/v1/StudentLocation"))
        #expect(logged.contains("http.status=200"))
        #expect(logged.hasSuffix(" request"))
    }
}
