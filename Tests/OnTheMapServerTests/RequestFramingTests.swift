import Foundation
import ServerTestSupport
import Testing

/// HTTP/1.1 framing over a raw socket: what a client's bytes say is answered as the protocol
/// says, never as a server error (Docs/Security.md).
@Suite struct RequestFramingTests {
    static let path = "/parse/classes/StudentLocation"
    static let body = #"{"uniqueKey":"k","firstName":"A","lastName":"B","mapString":"Porto","latitude":1,"longitude":2}"#

    /// The statuses of everything the server sends on one connection until it closes it (60 s
    /// bound: only a hang reaches it).
    static func statuses(_ server: TestServer, _ bytes: String) async throws -> [String] {
        let socket = try RawSocket(port: server.server.port)
        _ = socket.send(bytes)
        let text = String(decoding: await socket.awaitClose() ?? [], as: UTF8.self)
        return text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
    }

    /// A Transfer-Encoding other than chunked, or a chunk size past 64 bits, is a 400 (was: a 500
    /// and an error in the server's log).
    @Test(arguments: [
        "Transfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        "Transfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\nhello\r\n0\r\n\r\n",
    ])
    func badFramingIsA400(framing: String) async throws {
        let server = try await TestServer.start(openWrites: true)
        defer { Task { await server.stop() } }
        let request = "POST \(Self.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n" + framing
        #expect(try await Self.statuses(server, request) == ["400"])
        // The server lives on.
        #expect(try await Self.statuses(server, "GET \(Self.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n") == ["200"])
    }

    /// Requests sent one after another without waiting are each answered, in order.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let server = try await TestServer.start(openWrites: true)
        defer { Task { await server.stop() } }
        let post =
            "POST \(Self.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(Self.body.utf8.count)\r\n\r\n\(Self.body)"
        let missing = "GET \(Self.path)/NoSuchRow00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let list = "GET \(Self.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        #expect(try await Self.statuses(server, post + missing + list) == ["201", "404", "200"])
        #expect(try await Self.statuses(server, missing + post + list) == ["404", "201", "200"])
    }
}
