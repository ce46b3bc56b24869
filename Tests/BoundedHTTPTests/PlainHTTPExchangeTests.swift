import Foundation
import StandIn
import TestPatience
import Testing

@testable import BoundedHTTP

/// `PlainHTTPExchange` against real sockets on loopback: `RawHTTPServer` for exact bytes,
/// `FloodingServer` for floods and drips.
@Suite struct PlainHTTPExchangeTests {
    /// One exchange through the client, its answer or its failure.
    private func exchange(
        _ url: String, method: String = "GET", fields: [HTTPField] = [], body: Data? = nil, maxBytes: Int = 1 << 20,
        deadline: Duration = .seconds(20)
    ) async -> Result<HTTPAnswer, HTTPFailure> {
        guard let url = URL(string: url) else { return .failure(.transport("bad test URL")) }
        let request = HTTPRequest(method: method, url: url, fields: fields, body: body)
        do {
            return .success(try await BoundedHTTPClient().exchange(request, maxBytes: maxBytes, deadline: deadline))
        } catch {
            return .failure(error)
        }
    }

    /// The words of a failure with no answer at all (`.transport`).
    private func words(_ result: Result<HTTPAnswer, HTTPFailure>) -> String? {
        if case .failure(.transport(let words)) = result { return words }
        return nil
    }

    /// The words of an answer that HTTP/1.1 does not allow (`.malformedAnswer`).
    private func malformed(_ result: Result<HTTPAnswer, HTTPFailure>) -> String? {
        if case .failure(.malformedAnswer(let words)) = result { return words }
        return nil
    }

    private func failure(_ result: Result<HTTPAnswer, HTTPFailure>) -> HTTPFailure? {
        if case .failure(let failure) = result { return failure }
        return nil
    }

    private func url(_ server: RawHTTPServer, _ path: String = "/") -> String {
        "http://127.0.0.1:\(server.port)\(path)"
    }

    // MARK: - Round trips

    @Test func anUnknownSchemeIsRefused() async {
        await #expect(throws: HTTPFailure.transport("not an http:// or https:// URL")) {
            try await BoundedHTTPClient().exchange(
                HTTPRequest(url: URL(string: "ftp://127.0.0.1/")!), maxBytes: 10, deadline: .seconds(1))
        }
    }

    @Test func aGetSendsItsHeadAndReadsStatusFieldsInOrderAndBody() async throws {
        // Silent after the body: the answer must end at its Content-Length, not at the close.
        let server = try RawHTTPServer(
            "HTTP/1.1 201 Created\r\nSet-Cookie: a=1; Path=/\r\nx-order:  first \r\nSet-Cookie: b=2\r\n"
                + "Content-Length: 5\r\n\r\nhello",
            thenSilent: true)
        defer { server.stop() }
        let answer = try await exchange(
            url(server, "/v1/Thing?limit=100&where=%7B%22a%22%7D#fragment"),
            fields: [HTTPField("Accept", "application/json"), HTTPField("X-Parse-Application-Id", "app")]
        ).get()
        #expect(answer.status == 201)
        #expect(answer.fields.map(\.name) == ["Set-Cookie", "x-order", "Set-Cookie", "Content-Length"])
        #expect(answer.values(of: "set-cookie") == ["a=1; Path=/", "b=2"])
        #expect(answer.value(of: "X-Order") == "first")
        #expect(answer.cookie(named: "b") == "2")
        #expect(answer.body == Data("hello".utf8))
        let request = try #require(server.requests.first)
        #expect(
            request
                == "GET /v1/Thing?limit=100&where=%7B%22a%22%7D HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                + "Connection: close\r\nAccept: application/json\r\nX-Parse-Application-Id: app\r\n\r\n")
    }

    @Test func aPostSendsItsBodyWithItsLength() async throws {
        let server = try RawHTTPServer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        defer { server.stop() }
        let body = Data(#"{"udacity":{"username":"ü"}}"#.utf8)
        let answer = try await exchange(
            url(server, "/session"), method: "POST", fields: [HTTPField("Content-Type", "application/json")], body: body
        ).get()
        #expect(answer.body == Data("ok".utf8))
        #expect(
            server.requests
                == [
                    "POST /session HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n"
                        + "Content-Length: \(body.count)\r\nContent-Type: application/json\r\n\r\n"
                        + String(decoding: body, as: UTF8.self)
                ])
    }

    @Test func aPutWithoutBodySaysItsLengthIsZero() async throws {
        let server = try RawHTTPServer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        defer { server.stop() }
        _ = try await exchange(url(server), method: "PUT").get()
        #expect(server.requests.first?.contains("\r\nContent-Length: 0\r\n") == true)
    }

    @Test func anAnswerSentBeforeTheWholeBodyWasTakenIsRead() async throws {
        // The server refuses after the head and closes with 32 MB unread: the client's writes fail
        // (reset), but the answer had arrived first.
        let server = try RawHTTPServer(
            "HTTP/1.1 413 Content Too Large\r\nContent-Length: 8\r\n\r\ntoo big!", readsBody: false)
        defer { server.stop() }
        let answer = try await exchange(url(server), method: "POST", body: Data(count: 32 << 20)).get()
        #expect(answer.status == 413)
        #expect(answer.body == Data("too big!".utf8))
    }

    @Test func anIPv6LiteralIsResolvedAndSentInBrackets() async throws {
        let server = try RawHTTPServer(ipv6: true, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nv6")
        defer { server.stop() }
        let answer = try await exchange("http://[::1]:\(server.port)").get()
        #expect(answer.body == Data("v6".utf8))
        #expect(server.requests.first?.hasPrefix("GET / HTTP/1.1\r\nHost: [::1]:\(server.port)\r\n") == true)
    }

    // MARK: - Name resolution

    /// An exchange through a stand-in name lookup.
    private func exchange(
        _ url: String, deadline: Duration = .seconds(20),
        lookup: @escaping @Sendable (String, Int) -> [PlainHTTPAddress]?
    ) async -> Result<HTTPAnswer, HTTPFailure> {
        guard let url = URL(string: url) else { return .failure(.transport("bad test URL")) }
        do {
            return .success(
                try await PlainHTTPExchange.exchange(
                    HTTPRequest(url: url), maxBytes: 1 << 20, deadline: deadline, lookup: lookup))
        } catch {
            return .failure(error)
        }
    }

    @Test func aHostNameIsResolved() async throws {
        let server = try RawHTTPServer("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nname")
        defer { server.stop() }
        let answer = try await exchange("http://localhost:\(server.port)/").get()
        #expect(answer.body == Data("name".utf8))
        #expect(server.requests.first?.contains("\r\nHost: localhost:\(server.port)\r\n") == true)
    }

    @Test func theLookupsAddressesAreTheOnesConnectedTo() async throws {
        let server = try RawHTTPServer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        defer { server.stop() }
        let asked = LockedList()
        let answer = try await exchange("http://stand-in.test:\(server.port)/") { host, port in
            asked.append("\(host) \(port)")
            return PlainHTTPAddress.resolve("127.0.0.1", port: port, numericOnly: true)
        }.get()
        #expect(answer.body == Data("ok".utf8))
        #expect(asked.items == ["stand-in.test \(server.port)"])
        let unresolved = await exchange("http://nowhere.test/") { _, _ in nil }
        #expect(words(unresolved) == "cannot resolve nowhere.test")
    }

    @Test func anAddressThatDropsPacketsLeavesTimeForTheNext() async throws {
        let server = try RawHTTPServer("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        let blackhole = try Blackhole()
        defer {
            server.stop()
            blackhole.stop()
        }
        let (dropping, answering) = (blackhole.port, server.port)
        let result = await exchange("http://two-addresses.test/", deadline: .seconds(8)) { _, _ in
            [dropping, answering].compactMap {
                PlainHTTPAddress.resolve("127.0.0.1", port: Int($0), numericOnly: true)?.first
            }
        }
        // The blackhole never completes a connection, so an answer at all means that the first
        // address was given up after its share (half of the 8 s) and the second had the rest. No
        // clock is read: on a loaded machine the exchange may take longer than the share suggests.
        #expect(try result.get().body == Data("ok".utf8))
        #expect(server.requests.count == 1)
    }

    @Test func aLookupThatHangsEndsAtTheDeadline() async {
        let hanging = HangingLookup()
        defer { hanging.release() }
        let result = await exchange("http://hanging.test/", deadline: .seconds(1), lookup: hanging.lookup)
        #expect(failure(result) == .deadline(seconds: 1))
        // The lookup is let go only after this, so the exchange did not wait for it: no clock is
        // read.
        #expect(!hanging.hasReturned)
    }

    @Test func cancellingDuringALookupEndsTheExchange() async {
        let hanging = HangingLookup()
        defer { hanging.release() }
        let task = Task { await exchange("http://hanging.test/", deadline: .seconds(120), lookup: hanging.lookup) }
        for await _ in hanging.started { break }
        task.cancel()
        #expect(failure(await task.value) == .cancelled)
        #expect(!hanging.hasReturned, "the cancel waited for the lookup")
    }

    @Test func theHostFieldNamesThePortOnlyWhenItIsNot80() throws {
        func head(_ url: String) throws -> String {
            let request = HTTPRequest(url: try #require(URL(string: url)))
            return String(decoding: try PlainHTTPRequestHead.bytes(of: request), as: UTF8.self)
        }
        #expect(try head("http://example.com") == "GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n")
        #expect(try head("http://example.com:80/a%20b?q").hasPrefix("GET /a%20b?q HTTP/1.1\r\nHost: example.com\r\n"))
        #expect(try head("http://[::1]:8080/").contains("\r\nHost: [::1]:8080\r\n"))
    }

    @Test func aChunkedAnswerIsDecodedWithoutItsExtensionsAndTrailers() async throws {
        let server = try RawHTTPServer(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n"
                + "5;name=value\r\nhello\r\n7 ; x=\"y\"\r\n, world\r\n00\r\nX-Trailer: t\r\nX-Other: u\r\n\r\n",
            thenSilent: true)
        defer { server.stop() }
        let answer = try await exchange(url(server)).get()
        #expect(answer.body == Data("hello, world".utf8))
        #expect(answer.value(of: "X-Trailer") == nil)
    }

    @Test func anAnswerWithoutLengthEndsWhenTheServerCloses() async throws {
        let server = try RawHTTPServer("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it\r\nand more")
        defer { server.stop() }
        let answer = try await exchange(url(server)).get()
        #expect(answer.body == Data("all of it\r\nand more".utf8))
    }

    @Test func continueHeadsAreSkipped() async throws {
        let server = try RawHTTPServer(
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        defer { server.stop() }
        let answer = try await exchange(url(server)).get()
        #expect(answer.status == 200)
        #expect(answer.fields == [HTTPField("Content-Length", "2")])
        #expect(answer.body == Data("ok".utf8))
    }

    @Test func bareLineFeedsAndFoldedFieldsAreRead() async throws {
        let server = try RawHTTPServer("HTTP/1.1 200 OK\nX-Folded: a\n\t b \nContent-Length: 2\n\nok")
        defer { server.stop() }
        let answer = try await exchange(url(server)).get()
        #expect(answer.fields == [HTTPField("X-Folded", "a b"), HTTPField("Content-Length", "2")])
        #expect(answer.body == Data("ok".utf8))
    }

    @Test(arguments: [
        ("GET", "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n", 204),
        ("GET", "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n", 304),
        ("HEAD", "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", 200),
    ])
    func noBodyIsReadAfterHeadOr204Or304(method: String, reply: String, status: Int) async throws {
        // The server then stays silent: reading a body would last until the deadline.
        let server = try RawHTTPServer(reply, thenSilent: true)
        defer { server.stop() }
        let answer = try await exchange(url(server), method: method, deadline: .seconds(30)).get()
        #expect(answer.status == status)
        #expect(answer.body.isEmpty)
    }

    // MARK: - Caps

    @Test func theCapIsInclusive() async throws {
        let exact = try RawHTTPServer("HTTP/1.1 200 OK\r\n\r\n0123456789")
        let over = try RawHTTPServer("HTTP/1.1 200 OK\r\n\r\n0123456789a")
        let chunked = try RawHTTPServer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n012345\r\n5\r\n")
        defer { [exact, over, chunked].forEach { $0.stop() } }
        #expect(try await exchange(url(exact), maxBytes: 10).get().body.count == 10)
        #expect(failure(await exchange(url(over), maxBytes: 10)) == .tooBig(maxBytes: 10))
        #expect(failure(await exchange(url(chunked), maxBytes: 10)) == .tooBig(maxBytes: 10))
    }

    @Test func anAnnouncedLengthOverTheCapIsRefusedWithoutReading() async throws {
        // Nothing follows the head: a client that waited for the body would end at the deadline.
        let server = try RawHTTPServer("HTTP/1.1 200 OK\r\nContent-Length: 400000000000\r\n\r\n", thenSilent: true)
        let overflowing = try RawHTTPServer(
            "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n", thenSilent: true)
        defer { [server, overflowing].forEach { $0.stop() } }
        #expect(
            failure(await exchange(url(server), maxBytes: 1 << 20, deadline: .seconds(120)))
                == .tooBig(maxBytes: 1 << 20))
        #expect(
            failure(await exchange(url(overflowing), maxBytes: 1 << 20, deadline: .seconds(120)))
                == .tooBig(maxBytes: 1 << 20))
        // `tooBig`, not `deadline`: each was refused before its 120 s deadline. No clock is read.
    }

    /// The floods run in a process of their own (`FloodInChild`).
    @Test(arguments: [FloodingServer.Mode.chunked(400 << 20), .bytes(400 << 20, announced: false)])
    func a400MBFloodEndsAtTheCapWithoutBeingHeld(mode: FloodingServer.Mode) async throws {
        let server = try FloodingServer(mode)
        defer { server.stop() }
        let (outcome, growth) = try await FloodInChild.run(
            url: server.baseURL.absoluteString + "/v1/StudentLocation", maxBytes: 4 << 20)
        #expect(outcome == "\(HTTPFailure.tooBig(maxBytes: 4 << 20))")
        #expect(growth < 32, "peak resident memory grew by \(growth) MB")
    }

    // MARK: - Deadline and cancellation

    @Test func aDripEndsAtTheDeadline() async throws {
        let server = try FloodingServer(.drip(interval: 0.5))
        defer { server.stop() }
        let clock = ContinuousClock()
        let started = clock.now
        let result = await exchange(server.baseURL.absoluteString, deadline: .seconds(2))
        let elapsed = clock.now - started
        #expect(failure(result) == .deadline(seconds: 2))
        // Not before the deadline. The drip (a byte every 0.5 s, for ever) never lets an idle
        // timeout fire, so `deadline` itself shows the deadline covers the whole exchange (no
        // upper bound: beside two CPU hogs the awaiting task has resumed over a minute late).
        #expect(elapsed >= .seconds(1.9), "ended after \(elapsed)")
    }

    @Test func aRefusedPortFailsAtOnce() async {
        let result = await exchange("http://127.0.0.1:\(closedPort())/", deadline: .seconds(120))
        // Refused, not `deadline`: not retried until the 120 s deadline. No clock is read.
        #expect(words(result)?.hasSuffix("(refused)") == true, "\(result)")
    }

    @Test func cancellingTheTaskEndsTheExchangeAndClosesTheConnection() async throws {
        let server = try RawHTTPServer("", thenSilent: true)
        defer { server.stop() }
        let address = url(server)
        let task = Task { await exchange(address, deadline: .seconds(120)) }
        for await _ in server.received { break }
        task.cancel()
        // `cancelled`, not `deadline`: the cancel ended it, far from the 120 s deadline.
        #expect(failure(await task.value) == .cancelled)
        #expect(await server.closedByClient(within: Patience.forAnEvent), "the connection was left open")
    }

    @Test func anAlreadyCancelledTaskConnectsNowhere() async throws {
        let server = try RawHTTPServer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        defer { server.stop() }
        let address = url(server)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await exchange(address)
        }
        #expect(failure(await task.value) == .cancelled)
        #expect(server.accepted == 0)
    }

    // MARK: - Hostile answers

    @Test(arguments: [
        "fffffffffffffffffffff\r\n",  // overflows Int
        "-1\r\n", "+5\r\n", "0x10\r\n", "zz\r\n", "\r\n", ";ext\r\n", "5 5\r\n",
    ])
    func aHostileChunkSizeIsAMalformedAnswer(sizeLine: String) async throws {
        let server = try RawHTTPServer(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(sizeLine)hello\r\n0\r\n\r\n")
        defer { server.stop() }
        let result = await exchange(url(server))
        #expect(malformed(result)?.contains("chunk size") == true, "\(result)")
    }

    @Test func aChunkSizeOverTheCapIsTooBig() async throws {
        let server = try RawHTTPServer(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n", thenSilent: true)
        defer { server.stop() }
        #expect(failure(await exchange(url(server), maxBytes: 100)) == .tooBig(maxBytes: 100))
    }

    @Test func aChunkLongerThanItsSizeIsAMalformedAnswer() async throws {
        let server = try RawHTTPServer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n")
        defer { server.stop() }
        #expect(malformed(await exchange(url(server))) == "a chunk is longer than its size")
    }

    @Test func aHeaderBlockOver64KBIsRefused() async throws {
        let big = try RawHTTPServer(
            "HTTP/1.1 200 OK\r\nX-Filler: \(String(repeating: "a", count: 70_000))\r\nContent-Length: 0\r\n\r\n")
        let many = try RawHTTPServer("HTTP/1.1 200 OK\r\n" + String(repeating: "X-A: 1\r\n", count: 257) + "\r\n")
        defer { [big, many].forEach { $0.stop() } }
        #expect(malformed(await exchange(url(big))) == "the answer's header block is over 65536 bytes")
        #expect(malformed(await exchange(url(many))) == "the answer has over 256 header fields")
        // 1xx heads share the budget: an endless stream of them ends too.
        let continues = try RawHTTPServer(String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 3000))
        defer { continues.stop() }
        #expect(malformed(await exchange(url(continues))) == "the answer's header block is over 65536 bytes")
        // Just under both limits is an answer.
        let fits = try RawHTTPServer(
            "HTTP/1.1 200 OK\r\nX-Filler: \(String(repeating: "a", count: 60_000))\r\n"
                + String(repeating: "X-A: 1\r\n", count: 255) + "\r\n")
        defer { fits.stop() }
        #expect(try await exchange(url(fits)).get().fields.count == 256)
    }

    @Test(arguments: [
        (
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
            "conflicting Content-Length values"
        ),
        ("HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\nhello!", "conflicting Content-Length values"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\nhello", "a malformed Content-Length"),
        ("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\nhello", "a malformed Content-Length"),
        (
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello",
            "the server closed the connection before the end of the body"
        ),
        (
            "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n",
            "the server closed the connection in the middle of the answer's head"
        ),
        ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", #"a malformed header field ("no colon here")"#),
        ("HTTP/1.1 101 Switching Protocols\r\n\r\n", "the server switched protocols unasked"),
        (
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel",
            "the server closed the connection before the end of the chunked body"
        ),
        ("HTTP/2 200\r\n\r\n", #"not an HTTP answer ("HTTP/2 200")"#),
        // A TLS alert (an https:// server asked for http://), cut before any line ends.
        ("\u{15}\u{03}\u{01}\u{00}\u{02}\u{02}\u{32}", "a TLS answer: the server speaks https://"),
        ("HTTP/1.", "the server closed the connection in the middle of the answer's head"),
    ])
    func aBrokenAnswerIsAMalformedAnswerInShortWords(reply: String, expected: String) async throws {
        let server = try RawHTTPServer(reply)
        defer { server.stop() }
        #expect(malformed(await exchange(url(server))) == expected)
    }

    /// Nothing came back: no answer, not a malformed one.
    @Test func aConnectionClosedWithoutAWordIsATransportFailure() async throws {
        let server = try RawHTTPServer("")
        defer { server.stop() }
        #expect(words(await exchange(url(server))) == "the server closed the connection without answering")
    }

    @Test func aResetIsATransportFailure() async throws {
        let server = try RawHTTPServer("", thenReset: true)
        defer { server.stop() }
        #expect(words(await exchange(url(server))) == "the server reset the connection")
    }

    @Test func theWholeCapMayBeAskedFor() async throws {
        let server = try RawHTTPServer("HTTP/1.1 200 OK\r\n\r\nno length")
        defer { server.stop() }
        #expect(try await exchange(url(server), maxBytes: .max).get().body == Data("no length".utf8))
    }

    @Test func aNonHTTPAnswerIsQuotedShortAndPrintable() async throws {
        let junk: [UInt8] =
            Array("SSH-2.0-OpenSSH_9.2".utf8) + [0x1B, 0x5B, 0x32, 0x4A, 0x00, 0xFF]
            + Array(repeating: 0x41, count: 500)
        let server = try RawHTTPServer(reply: junk + [0x0D, 0x0A])
        defer { server.stop() }
        let shown = try #require(malformed(await exchange(url(server))))
        #expect(shown == #"not an HTTP answer ("SSH-2.0-OpenSSH_9.2?[2J??AAAAAAAAAAAAAAA…")"#)
    }

    // MARK: - Requests refused before sending

    @Test(arguments: [
        HTTPField("X-Token", "a\r\nX-Injected: 1"), HTTPField("X-Token", "a\nb"), HTTPField("X-Token", "a\u{0}b"),
        HTTPField("X-Bad\r\nName", "a"), HTTPField("", "a"), HTTPField("Content-Length", "5"),
        HTTPField("host", "evil"),
    ])
    func aBadRequestFieldIsRefusedAndNothingIsSent(field: HTTPField) async throws {
        let server = try RawHTTPServer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        defer { server.stop() }
        let result = await exchange(url(server), fields: [HTTPField("Accept", "*/*"), field])
        #expect(
            words(result)?.hasPrefix("a request field's name") == true
                || words(result)?.hasPrefix("the request field") == true, "\(result)")
        #expect(server.accepted == 0)
    }
}

/// Strings appended from the lookup's thread, read by the test.
private final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    func append(_ item: String) { lock.withLock { list.append(item) } }
    var items: [String] { lock.withLock { list } }
}

/// A port on 127.0.0.1 where a connection is never completed: its listener (backlog 0) is held
/// full by one connection that is never accepted, so the kernel drops every further SYN.
private final class Blackhole: Sendable {
    let port: UInt16
    private let listener: Int32
    private let filler: Int32

    init() throws {
        (listener, port) = try loopbackListener(backlog: 0)
        filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard var address = PlainHTTPAddress.resolve("127.0.0.1", port: Int(port), numericOnly: true)?.first?.storage,
            withUnsafePointer(
                to: &address,
                {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }) == 0
        else { throw POSIXError(.ECONNREFUSED) }
    }

    func stop() {
        close(filler)
        close(listener)
    }
}

/// A name lookup that never answers until the test lets it go (or `Patience` runs out), and says
/// when it was asked and whether it has returned: a test of an exchange that must not wait for
/// its lookup judges by that, not by a clock.
private final class HangingLookup: Sendable {
    let started: AsyncStream<Void>
    private let startedContinuation: AsyncStream<Void>.Continuation
    private let letGo = DispatchSemaphore(value: 0)
    private let returned = DispatchSemaphore(value: 0)

    init() { (started, startedContinuation) = AsyncStream<Void>.makeStream() }

    /// The lookup, waited for inline on the exchange's thread.
    var lookup: @Sendable (String, Int) -> [PlainHTTPAddress]? {
        { [self] _, _ in
            startedContinuation.yield()
            _ = letGo.wait(timeout: .now() + .seconds(Int(Patience.forAnEvent.components.seconds)))
            returned.signal()
            return nil
        }
    }

    var hasReturned: Bool {
        guard returned.wait(timeout: .now()) == .success else { return false }
        returned.signal()
        return true
    }

    func release() { letGo.signal() }
}
