import BoundedHTTP
import Foundation
import Testing

/// `https://` through libcurl against a real TLS server on loopback: a python3 `ssl` + `http.server`
/// script with a throwaway CA and server certificate made by the `openssl` CLI in a temporary folder.
@Suite struct CurlExchangeTests {
    @Test func getRoundTripsOverHTTPS() async throws {
        let server = try TLSServer.start()
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
        let server = try TLSServer.start()
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
        let server = try TLSServer.start()
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
        let server = try TLSServer.start()
        defer { server.stop() }
        let answer = try await server.client.exchange(
            HTTPRequest(method: "HEAD", url: server.url("/bytes?n=5000")), maxBytes: 100, deadline: .seconds(20))
        #expect(answer.status == 200)
        #expect(answer.value(of: "Content-Length") == "5000")
        #expect(answer.body.isEmpty)
    }

    @Test func aDeadlineBeyondLibcurlsRangeIsClampedNotATrap() async throws {
        let server = try TLSServer.start()
        defer { server.stop() }
        let answer = try await server.client.exchange(
            HTTPRequest(url: server.url("/echo")), maxBytes: 100_000, deadline: .seconds(Int64.max))
        #expect(answer.status == 200)
    }

    @Test func theFieldsAreTheFinalAnswersAfter100ContinueAndFoldedLinesJoin() async throws {
        let server = try TLSServer.start()
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
        let server = try TLSServer.start()
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
        let server = try TLSServer.start()
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
        let server = try TLSServer.start()
        defer { server.stop() }
        // The server announces 10 MB and then sends nothing: only refusing the announcement ends it
        // before the deadline.
        let started = ContinuousClock.now
        await #expect(throws: HTTPFailure.tooBig(maxBytes: 1000)) {
            try await server.client.exchange(
                HTTPRequest(url: server.url("/announced")), maxBytes: 1000, deadline: .seconds(30))
        }
        #expect(ContinuousClock.now - started < .seconds(15))
    }

    @Test(arguments: ["/bytes", "/bytes-chunked"])
    func aBodyOfExactlyTheCapIsKeptOneMoreIsRefused(path: String) async throws {
        let server = try TLSServer.start()
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
        let server = try TLSServer.start()
        defer { server.stop() }
        let (outcome, growth) = try await FloodInChild.run(
            url: server.url(path).absoluteString, maxBytes: 1_000_000, caFile: server.caFile)
        #expect(outcome == "\(HTTPFailure.tooBig(maxBytes: 1_000_000))")
        #expect(growth < 32, "peak resident memory grew by \(growth) MB")
    }

    @Test func aDripEndsAtTheDeadline() async throws {
        let server = try TLSServer.start()
        defer { server.stop() }
        let started = ContinuousClock.now
        await #expect(throws: HTTPFailure.deadline(seconds: 2)) {
            try await server.client.exchange(
                HTTPRequest(url: server.url("/drip")), maxBytes: 1_000_000, deadline: .seconds(2))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(1900) && elapsed < .seconds(7), "ended after \(elapsed)")
    }

    @Test func cancellingTheTaskEndsTheExchange() async throws {
        let server = try TLSServer.start()
        defer { server.stop() }
        let client = server.client
        let url = server.url("/hold")
        let exchange = Task {
            try await client.exchange(HTTPRequest(url: url), maxBytes: 1000, deadline: .seconds(60))
        }
        // The server says when it has answered the head and holds the rest of the body back.
        #expect(await server.nextLine() == "holding")
        let cancelled = ContinuousClock.now
        exchange.cancel()
        await #expect(throws: HTTPFailure.cancelled) { try await exchange.value }
        #expect(ContinuousClock.now - cancelled < .seconds(4))
    }

    @Test func aTaskCancelledBeforeItAsksEndsCancelled() async throws {
        let server = try TLSServer.start()
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

private struct SetupFailed: Error, CustomStringConvertible {
    var description: String
}

/// Runs a program found on PATH (no shell) and waits for it.
private func run(_ arguments: [String], in folder: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw SetupFailed(description: "\(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
    }
}

/// A throwaway CA and a certificate it signed for 127.0.0.1 and localhost, made once per process.
private enum Certificates {
    static let folder: Result<URL, any Error> = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("curl-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit {
            if case .success(let folder) = Certificates.folder { try? FileManager.default.removeItem(at: folder) }
        }
        try configuration.write(to: folder.appendingPathComponent("tls.cnf"), atomically: true, encoding: .utf8)
        try Data(serverScript.utf8).write(to: folder.appendingPathComponent("server.py"))
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            ["openssl", "req", "-x509", "-config", "tls.cnf", "-extensions", "ca", "-subj", "/CN=onthemap test CA"]
                + key + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2"], in: folder)
        try run(
            ["openssl", "req", "-new", "-config", "tls.cnf", "-subj", "/CN=localhost"] + key
                + ["-keyout", "server.key", "-out", "server.csr"], in: folder)
        try run(
            [
                "openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "2",
                "-days", "2", "-extfile", "tls.cnf", "-extensions", "server", "-out", "server.pem",
            ], in: folder)
        return folder
    }

    static let configuration = """
        [req]
        distinguished_name = dn
        prompt = no
        [dn]
        CN = unused
        [ca]
        basicConstraints = critical, CA:TRUE
        keyUsage = critical, keyCertSign, cRLSign
        subjectKeyIdentifier = hash
        [server]
        basicConstraints = critical, CA:FALSE
        keyUsage = critical, digitalSignature
        extendedKeyUsage = serverAuth
        subjectAltName = IP:127.0.0.1, DNS:localhost
        subjectKeyIdentifier = hash
        authorityKeyIdentifier = keyid

        """
}

/// The TLS server process: it prints "port N" once listening, "holding" when /hold has sent its
/// head, and exits when its standard input closes (so it never outlives the test process).
private final class TLSServer: @unchecked Sendable {
    let port: Int
    let folder: URL
    private let process: Process
    private let input: Pipe
    private let output: LineReader

    var caFile: String { folder.appendingPathComponent("ca.pem").path }
    var client: BoundedHTTPClient { BoundedHTTPClient(caFile: caFile) }

    func url(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(port)\(path)")! }

    static func start() throws -> TLSServer {
        let folder = try Certificates.folder.get()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "server.py"]
        process.currentDirectoryURL = folder
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let reader = LineReader(output.fileHandleForReading.fileDescriptor)
        guard let line = reader.next(), line.hasPrefix("port "), let port = Int(line.dropFirst(5)) else {
            process.terminate()
            throw SetupFailed(description: "the TLS server did not start")
        }
        return TLSServer(port: port, folder: folder, process: process, input: input, output: reader)
    }

    private init(port: Int, folder: URL, process: Process, input: Pipe, output: LineReader) {
        self.port = port
        self.folder = folder
        self.process = process
        self.input = input
        self.output = output
    }

    /// The server's next line of output, read on a thread of its own.
    func nextLine() async -> String? {
        let output = output
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: output.next()) }
        }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// Lines from a pipe, read with blocking reads (one reader at a time).
private final class LineReader: @unchecked Sendable {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    init(_ descriptor: Int32) { self.descriptor = descriptor }

    func next() -> String? {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                defer { pending.removeSubrange(...newline) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            pending += chunk[..<count]
        }
    }
}

private let serverScript = #"""
    import base64, json, os, ssl, sys, threading, time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qs, urlsplit


    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            self.route(b"")

        def do_DELETE(self):
            self.route(b"")

        def do_HEAD(self):
            self.route(b"")

        def do_POST(self):
            self.route(self.rfile.read(int(self.headers.get("Content-Length", "0"))))

        do_PUT = do_POST

        def head(self, status, fields):
            self.send_response_only(status)
            for name, value in fields:
                self.send_header(name, value)
            self.send_header("Connection", "close")
            self.end_headers()

        def route(self, body):
            path = urlsplit(self.path).path
            count = int(parse_qs(urlsplit(self.path).query).get("n", ["0"])[0])
            try:
                if path == "/echo":
                    answer = json.dumps({"method": self.command, "path": self.path,
                                         "fields": [[k, v] for k, v in self.headers.items()],
                                         "body": base64.b64encode(body).decode()}).encode()
                    self.head(201 if self.command == "POST" else 200,
                              [("Content-Type", "application/json"), ("Set-Cookie", "a=1; Path=/"),
                               ("Set-Cookie", "b=2; HttpOnly"), ("Content-Length", str(len(answer)))])
                    self.wfile.write(answer)
                elif path == "/continue":
                    self.wfile.write(b"HTTP/1.1 100 Continue\r\nX-Interim: 1\r\n\r\n"
                                     b"HTTP/1.1 200 OK\r\nX-Final: yes\r\nX-Folded: one\r\n two\r\n"
                                     b"Content-Length: 4\r\nConnection: close\r\n\r\ndone")
                elif path == "/not-http":
                    self.wfile.write(b"hello, this is not HTTP\r\n\r\n")
                elif path == "/short":
                    self.head(200, [("Content-Length", "10")])
                    self.wfile.write(b"12345")
                elif path == "/announced":
                    self.head(200, [("Content-Length", "10000000")])
                    time.sleep(60)
                elif path == "/bytes":
                    self.head(200, [("Content-Length", str(count))])
                    if self.command != "HEAD":
                        self.wfile.write(b"x" * count)
                elif path == "/bytes-chunked":
                    self.head(200, [("Transfer-Encoding", "chunked")])
                    self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (count, b"x" * count))
                elif path in ("/flood", "/flood-chunked"):
                    chunked = path == "/flood-chunked"
                    self.head(200, [("Transfer-Encoding", "chunked")] if chunked else [])
                    piece = b"x" * 65536
                    if chunked:
                        piece = b"10000\r\n" + piece + b"\r\n"
                    for _ in range(400 * 16):
                        self.wfile.write(piece)
                elif path == "/drip":
                    self.head(200, [("Content-Length", "40")])
                    for _ in range(40):  # 10 s in all: without a deadline, a whole answer
                        self.wfile.write(b"x")
                        time.sleep(0.25)
                elif path == "/hold":
                    self.head(200, [("Content-Length", "100")])
                    print("holding", flush=True)
                    time.sleep(60)
            except OSError:
                pass  # the client went away (over the cap, deadline, cancelled)


    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain("server.pem", "server.key")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    print("port", server.server_address[1], flush=True)
    server.serve_forever()
    """#
