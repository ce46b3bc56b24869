import BoundedHTTP
import Foundation
import StandIn
import Testing

/// `https://` through libcurl against a real TLS server on loopback: a python3 `ssl` + `http.server`
/// script with a throwaway CA and server certificate made by the `openssl` CLI in a temporary folder.
@Suite struct CurlExchangeTests {
    @Test func getRoundTripsOverHTTPS() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        let answer = try await server.client.exchange(
            HTTPRequest(url: server.url("/echo?q=1"), fields: [HTTPField("X-Parse-Application-Id", "app")]),
            maxBytes: 100_000, deadline: .seconds(20))
        #expect(answer.status == 200)
        #expect(answer.values(of: "set-cookie") == ["a=1; Path=/", "b=2; HttpOnly"])
        #expect(answer.cookie(named: "b") == "2")
        #expect(answer.value(of: "Content-Type") == "application/json")
        let received = try Received(answer.body)
        #expect(received.method == "GET")
        #expect(received.path == "/echo?q=1")
        #expect(received.value(of: "X-Parse-Application-Id") == "app")
        #expect(received.value(of: "Accept") == nil, "libcurl's own Accept: */* is not sent")
        #expect(received.body.isEmpty)
    }

    @Test func postRoundTripsABinaryBodyOverHTTPS() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        // Binary safe: NUL, CR LF, bytes that are not UTF-8; longer than libcurl's Expect threshold.
        let body = Data([0, 13, 10, 0xFF, 0xFE, 65]) + Data(repeating: 0x5A, count: 2_000_000)
        let answer = try await server.client.exchange(
            HTTPRequest(
                method: "POST", url: server.url("/echo"),
                fields: [HTTPField("Content-Type", "application/octet-stream")],
                body: body),
            maxBytes: 10_000_000, deadline: .seconds(20))
        #expect(answer.status == 201)
        #expect(answer.values(of: "Set-Cookie").count == 2)
        let received = try Received(answer.body)
        #expect(received.method == "POST")
        #expect(received.body == body)
        #expect(received.value(of: "Content-Length") == "\(body.count)")
        #expect(received.value(of: "Content-Type") == "application/octet-stream")
        #expect(received.value(of: "Expect") == nil)
    }

    @Test func otherMethodsKeepTheirNameAndBody() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        let put = try await server.client.exchange(
            HTTPRequest(method: "PUT", url: server.url("/echo"), body: Data("{\"a\":1}".utf8)),
            maxBytes: 100_000, deadline: .seconds(20))
        let received = try Received(put.body)
        #expect(received.method == "PUT")
        #expect(received.body == Data("{\"a\":1}".utf8))
        #expect(received.value(of: "Content-Type") == nil, "libcurl's form Content-Type is not sent")
        let delete = try await server.client.exchange(
            HTTPRequest(method: "DELETE", url: server.url("/echo")), maxBytes: 100_000, deadline: .seconds(20))
        #expect(try Received(delete.body).method == "DELETE")
    }

    @Test func headReadsNoBodyAndItsLengthIsNotTheBodys() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        let answer = try await server.client.exchange(
            HTTPRequest(method: "HEAD", url: server.url("/bytes?n=5000")), maxBytes: 100, deadline: .seconds(20))
        #expect(answer.status == 200)
        #expect(answer.value(of: "Content-Length") == "5000")
        #expect(answer.body.isEmpty)
    }

    @Test func aDeadlineBeyondLibcurlsRangeIsClampedNotATrap() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        let answer = try await server.client.exchange(
            HTTPRequest(url: server.url("/echo")), maxBytes: 100_000, deadline: .seconds(Int64.max))
        #expect(answer.status == 200)
    }

    @Test func theFieldsAreTheFinalAnswersAfter100ContinueAndFoldedLinesJoin() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        let answer = try await server.client.exchange(
            HTTPRequest(url: server.url("/continue")), maxBytes: 1000, deadline: .seconds(20))
        #expect(answer.status == 200)
        #expect(answer.value(of: "X-Interim") == nil)
        #expect(answer.value(of: "X-Final") == "yes")
        #expect(answer.value(of: "X-Folded") == "one two")
        #expect(answer.body == Data("done".utf8))
    }

    @Test func withoutTheCAFileTheCertificateIsRefused() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        await #expect {
            try await BoundedHTTPClient().exchange(
                HTTPRequest(url: server.url("/echo")), maxBytes: 1000, deadline: .seconds(20))
        } throws: { error in
            guard case .insecure(let words) = error as? HTTPFailure else { return false }
            return words.contains("certificate")
        }
    }

    /// Not HTTP at all, or a body cut short: something answered, so not a transport failure.
    @Test(arguments: [("/not-http", "HTTP/0.9"), ("/short", "5 bytes remaining")])
    func aBrokenAnswerIsAMalformedAnswer(path: String, words expected: String) async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        await #expect {
            try await server.client.exchange(
                HTTPRequest(url: server.url(path)), maxBytes: 1000, deadline: .seconds(20))
        } throws: { error in
            guard case .malformedAnswer(let words) = error as? HTTPFailure else { return false }
            return words.contains(expected)
        }
    }

    @Test func aRefusedConnectionIsATransportFailure() async {
        await #expect {
            try await BoundedHTTPClient().exchange(
                HTTPRequest(url: URL(string: "https://127.0.0.1:1/")!), maxBytes: 1000, deadline: .seconds(20))
        } throws: { error in
            guard case .transport(let words) = error as? HTTPFailure else { return false }
            return words.contains("onnect")
        }
    }

    @Test func anAnnouncedLengthOverTheCapIsRefusedUnread() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        // The server announces 10 MB and then sends nothing: only refusing the announcement ends it
        // before the deadline, and with `tooBig` (waiting would end with `deadline`). No clock is
        // read.
        await #expect(throws: HTTPFailure.tooBig(maxBytes: 1000)) {
            try await server.client.exchange(
                HTTPRequest(url: server.url("/announced")), maxBytes: 1000, deadline: .seconds(120))
        }
    }

    @Test(arguments: ["/bytes", "/bytes-chunked"])
    func aBodyOfExactlyTheCapIsKeptOneMoreIsRefused(path: String) async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        let answer = try await server.client.exchange(
            HTTPRequest(url: server.url("\(path)?n=5000")), maxBytes: 5000, deadline: .seconds(20))
        #expect(answer.body == Data(repeating: UInt8(ascii: "x"), count: 5000))
        await #expect(throws: HTTPFailure.tooBig(maxBytes: 4999)) {
            try await server.client.exchange(
                HTTPRequest(url: server.url("\(path)?n=5000")), maxBytes: 4999, deadline: .seconds(20))
        }
    }

    /// The floods run in a process of their own (`FloodInChild`).
    @Test(arguments: ["/flood", "/flood-chunked"])
    func a400MBAnswerWithoutALengthStopsAtTheCap(path: String) async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        let (outcome, growth) = try await FloodInChild.run(
            url: server.url(path).absoluteString, maxBytes: 1_000_000, caFile: server.caFile)
        #expect(outcome == "\(HTTPFailure.tooBig(maxBytes: 1_000_000))")
        #expect(growth < 32, "peak resident memory grew by \(growth) MB")
    }

    @Test func aDripEndsAtTheDeadline() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        let started = ContinuousClock.now
        await #expect(throws: HTTPFailure.deadline(seconds: 2)) {
            try await server.client.exchange(
                HTTPRequest(url: server.url("/drip")), maxBytes: 1_000_000, deadline: .seconds(2))
        }
        // Not before the deadline. The drip lasts 30 s and sends a byte every 0.25 s, so the
        // deadline error itself shows that the deadline covers the whole exchange: an idle timeout
        // would never fire and the whole answer would arrive. (No upper bound: on a loaded machine
        // the task that awaits the exchange has resumed 30 s late.)
        #expect(ContinuousClock.now - started >= .milliseconds(1900))
    }

    @Test func cancellingTheTaskEndsTheExchange() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        let client = server.client
        let url = server.url("/hold")
        let exchange = Task {
            try await client.exchange(HTTPRequest(url: url), maxBytes: 1000, deadline: .seconds(60))
        }
        // The server says when it has answered the head and holds the rest of the body back.
        #expect(await server.nextLine() == "holding")
        exchange.cancel()
        // `cancelled`, not `deadline`: the cancel ended it, far from the 60 s deadline.
        await #expect(throws: HTTPFailure.cancelled) { try await exchange.value }
    }

    @Test func aTaskCancelledBeforeItAsksEndsCancelled() async throws {
        let server = try await TLSServer.start()
        defer { server.stop() }
        let client = server.client
        let url = server.url("/echo")
        let exchange = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await client.exchange(HTTPRequest(url: url), maxBytes: 1000, deadline: .seconds(20))
        }
        exchange.cancel()
        await #expect(throws: HTTPFailure.cancelled) { try await exchange.value }
    }

    @Test func aFieldWithALineBreakIsRefusedBeforeConnecting() async {
        let request = HTTPRequest(url: URL(string: "https://127.0.0.1:1/")!, fields: [HTTPField("X-A", "1\r\nX-B: 2")])
        await #expect(throws: HTTPFailure.transport("the request field X-A holds CR, LF or NUL")) {
            try await BoundedHTTPClient().exchange(request, maxBytes: 10, deadline: .seconds(5))
        }
    }
}

// MARK: - Helpers

/// What the echo route saw: the method, path, fields in order and body (base64 on the wire).
private struct Received {
    var method: String
    var path: String
    var fields: [[String]]
    var body: Data

    init(_ json: Data) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        method = try #require(object["method"] as? String)
        path = try #require(object["path"] as? String)
        fields = try #require(object["fields"] as? [[String]])
        let base64 = try #require(object["body"] as? String)
        body = try #require(Data(base64Encoded: base64))
    }

    func value(of name: String) -> String? {
        fields.first { $0[0].caseInsensitiveCompare(name) == .orderedSame }?[1]
    }
}

extension TLSServer {
    /// A client that trusts this server's CA.
    var client: BoundedHTTPClient { BoundedHTTPClient(caFile: caFile) }
}
