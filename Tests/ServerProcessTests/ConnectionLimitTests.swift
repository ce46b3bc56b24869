import Foundation
import ServerTestSupport
import Testing

/// Idle, slow and many connections against a real `onthemap-server` process (issue 9, item 5).
extension AbuseTests {
@Suite struct ConnectionLimitTests {
    static let list = "/v1/StudentLocation?limit=100&skip=100&order=-updatedAt"

    private static func withServer(_ arguments: [String], _ body: (ServerProcess) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-conn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await ServerProcess.start(
            database: directory.appendingPathComponent("server.sqlite").path, arguments: ["--no-log-requests"] + arguments)
        defer { server.terminate() }
        try await body(server)
    }

    /// Waits (polling every 50 ms, at most `seconds`) until the server has closed every socket.
    private static func closed(_ sockets: [RawSocket], within seconds: Int) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var open = sockets
        while !open.isEmpty, ContinuousClock.now < deadline {
            open.removeAll { $0.isClosedByPeer }
            if !open.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        }
        return sockets.count - open.count
    }

    /// Sends `pieces` one at a time, `interval` apart, until the server closes the connection;
    /// how long that took, or `nil` if it never did.
    private static func trickleUntilClosed(
        _ socket: RawSocket, _ pieces: some Sequence<String>, every interval: Duration
    ) async throws -> Duration? {
        let started = ContinuousClock.now
        for piece in pieces {
            if !socket.send(piece) || socket.isClosedByPeer { return ContinuousClock.now - started }
            try await Task.sleep(for: interval)
        }
        return nil
    }

    /// A request body, a byte every 50 ms for at most 30 s.
    private static func trickleBodyUntilClosed(_ socket: RawSocket) async throws -> Duration? {
        try await trickleUntilClosed(socket, repeatElement("{", count: 600), every: .milliseconds(50))
    }

    @Test func fiveHundredIdleConnectionsDoNotStopANormalRequestAndAreClosedWhenIdle() async throws {
        RawSocket.raiseDescriptorLimit(to: 4096)
        try await Self.withServer(["--idle-timeout", "2"]) { server in
            // Half say nothing at all; half start a request and never finish its headers.
            var sockets: [RawSocket] = []
            for index in 0..<500 {
                let socket = try RawSocket(port: server.port)
                if index.isMultiple(of: 2) { socket.send("GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\n") }
                sockets.append(socket)
            }
            let started = ContinuousClock.now
            let reply = try await RawHTTP.send("GET", server.baseURL, Self.list)
            #expect(reply.status == 200)
            #expect(ContinuousClock.now - started < .seconds(10))
            // On main they stayed open for ever.
            #expect(try await Self.closed(sockets, within: 20) == 500)
        }
    }

    @Test func atTheCapTheLongestIdleConnectionMakesRoom() async throws {
        RawSocket.raiseDescriptorLimit(to: 4096)
        // An hour of idle timeout: only the cap's eviction can let the normal request in.
        try await Self.withServer(["--max-connections", "50", "--idle-timeout", "3600"]) { server in
            var sockets: [RawSocket] = []
            for _ in 0..<200 { sockets.append(try RawSocket(port: server.port)) }
            let started = ContinuousClock.now
            let reply = try await RawHTTP.send("GET", server.baseURL, Self.list)
            #expect(reply.status == 200)
            #expect(ContinuousClock.now - started < .seconds(10))  // without eviction: not for an hour
            // The oldest were closed to make room; the server holds no more than its cap.
            // (Connections are registered on two event loops, so the order is only nearly exact.)
            let evicted = try await Self.closed(Array(sockets.prefix(100)), within: 10)
            #expect(evicted == 100)
        }
    }

    /// A first request the HTTP parser refuses — an unknown method, a control byte in a field, a
    /// TLS ClientHello sent to the plain port — is answered 400 and closed at once. Before, the
    /// connection stayed open for minutes (a TLS ClientHello until the idle timeout), no longer
    /// counted against `--max-connections`.
    @Test func aFirstRequestThatCannotBeParsedIsAnswered400AndClosed() async throws {
        try await Self.withServer(["--idle-timeout", "3600", "--request-timeout", "3600"]) { server in
            let clientHello = "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{FC}\u{03}\u{03}" + String(repeating: "A", count: 64)
            for request in ["GARBAGE\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nX: \u{01}\r\n\r\n", clientHello] {
                let socket = try RawSocket(port: server.port)
                #expect(socket.send(request))
                let answer = socket.readUntilClosed(seconds: 20).map { String(decoding: $0, as: UTF8.self) }
                #expect(answer?.hasPrefix("HTTP/1.1 400 Bad Request\r\n") == true, "\(request.debugDescription): \(answer ?? "still open")")
            }
            // A good request on the same server is still answered.
            #expect(try await RawHTTP.send("GET", server.baseURL, Self.list).status == 200)
        }
    }

    @Test func headersTrickledAByteAtATimeDoNotHoldAConnection() async throws {
        try await Self.withServer(["--idle-timeout", "1", "--request-timeout", "2"]) { server in
            let socket = try RawSocket(port: server.port)
            let request = "GET /v1/StudentLocation HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Slow: 1\r\n", count: 200)
            let lasted = try #require(try await Self.trickleUntilClosed(socket, request.map(String.init), every: .milliseconds(100)))
            #expect(lasted < .seconds(10))
        }
    }

    @Test func aBodyTrickledAByteAtATimeDoesNotHoldAConnection() async throws {
        try await Self.withServer(["--idle-timeout", "1", "--request-timeout", "2", "--open-writes"]) { server in
            let socket = try RawSocket(port: server.port)
            socket.send(
                "POST /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n")
            let lasted = try #require(try await Self.trickleBodyUntilClosed(socket))
            #expect(lasted < .seconds(10))
        }
    }

    /// The request timeout counts from each request's start: a body trickled on a connection that
    /// answered a request a second earlier is closed about `--request-timeout` after its own
    /// head, neither at the earlier request's deadline nor never.
    @Test func aBodyTrickledAfterAnAnsweredRequestIsBoundedFromItsOwnStart() async throws {
        try await Self.withServer(["--idle-timeout", "30", "--request-timeout", "2", "--open-writes"]) { server in
            let socket = try RawSocket(port: server.port)
            #expect(socket.send("GET /v1/StudentLocation?limit=1 HTTP/1.1\r\nHost: x\r\n\r\n"))
            #expect(socket.read(until: #""results":"#, seconds: 30))
            try await Task.sleep(for: .seconds(1))
            socket.send(
                "POST /v1/StudentLocation HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n")
            let lasted = try #require(try await Self.trickleBodyUntilClosed(socket))
            #expect(lasted >= .milliseconds(1_500), "closed at the earlier request's deadline")
            #expect(lasted < .seconds(10))
        }
    }
}
}
