import Foundation
import Launcher

struct SetupFailed: Error, CustomStringConvertible {
    var description: String
}

/// Runs a program found on PATH (no shell) in `folder` and waits for it.
private func run(_ arguments: [String], in folder: URL) throws {
    let run = try LaunchedProcess.runBlocking(
        URL(fileURLWithPath: "/usr/bin/env"), arguments, directory: folder, output: .discard)
    guard run.status == 0 else {
        throw SetupFailed(description: "\(arguments.joined(separator: " ")) \(run.termination): \(run.stderr)")
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

/// A TLS server process (Python's `ssl`, with a certificate from a throwaway CA), for tests of the
/// https:// and wss:// clients: either an HTTP server with the routes of `CurlExchangeTests`
/// (`start()`), or a TLS proxy in front of a plain server on loopback (`start(forwardingTo:)`),
/// which is how a class serves `https://` and `wss://`. It prints "port N" once listening,
/// "holding" when /hold has sent its head, and exits when its standard input closes (so it never
/// outlives the test process).
public final class TLSServer: Sendable {
    public let port: Int
    let folder: URL
    private let process: LaunchedProcess
    private let output: Lines

    /// The CA that signed the server's certificate (for 127.0.0.1 and localhost), to trust.
    public var caFile: String { folder.appendingPathComponent("ca.pem").path }

    public func url(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(port)\(path)")! }

    /// The HTTP server with the test routes (/echo, /bytes, /flood, /drip, /hold, …).
    public static func start() async throws -> TLSServer { try await start(arguments: []) }

    /// A TLS proxy: each connection's bytes go both ways to and from 127.0.0.1:`port`.
    public static func start(forwardingTo port: Int) async throws -> TLSServer {
        try await start(arguments: ["--forward", String(port)])
    }

    private static func start(arguments: [String]) async throws -> TLSServer {
        let folder = try Certificates.folder.get()
        let process = try LaunchedProcess.start(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "server.py"] + arguments, directory: folder, input: .pipe)
        let output = process.standardOutput.lines()
        guard let line = await output.next(), line.hasPrefix("port "), let port = Int(line.dropFirst(5))
        else {
            process.send(SIGKILL)
            throw SetupFailed(description: "the TLS server did not start: \(process.standardError.text)")
        }
        return TLSServer(port: port, folder: folder, process: process, output: output)
    }

    private init(port: Int, folder: URL, process: LaunchedProcess, output: Lines) {
        self.port = port
        self.folder = folder
        self.process = process
        self.output = output
    }

    /// The server's next line of output.
    public func nextLine() async -> String? { await output.next() }

    /// Closes the server's standard input, its signal to exit, and waits for the exit.
    public func stop() {
        process.closeInput()
        process.waitForExit()
    }
}

private let serverScript = #"""
    import base64, json, os, select, socket, ssl, sys, threading, time
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
                    self.head(200, [("Content-Length", "120")])
                    for _ in range(120):  # 30 s in all: without a deadline, a whole answer
                        self.wfile.write(b"x")
                        time.sleep(0.25)
                elif path == "/hold":
                    self.head(200, [("Content-Length", "100")])
                    print("holding", flush=True)
                    time.sleep(60)
            except OSError:
                pass  # the client went away (over the cap, deadline, cancelled)


    def forward(tls, upstream):
        """One connection's bytes both ways, on one thread (an SSL socket is not shared)."""
        try:
            while True:
                ready = [tls] if tls.pending() else select.select([tls, upstream], [], [])[0]
                for source in ready:
                    data = source.recv(65536)
                    if not data:
                        return
                    (upstream if source is tls else tls).sendall(data)
        except OSError:
            pass
        finally:
            tls.close()
            upstream.close()


    def proxy(context, port):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        print("port", listener.getsockname()[1], flush=True)
        while True:
            raw, _ = listener.accept()

            def serve(raw=raw):
                try:
                    tls = context.wrap_socket(raw, server_side=True)
                except OSError:  # a client that does not trust the CA, or speaks no TLS
                    raw.close()
                    return
                forward(tls, socket.create_connection(("127.0.0.1", port)))

            threading.Thread(target=serve, daemon=True).start()


    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain("server.pem", "server.key")
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    if sys.argv[1:2] == ["--forward"]:
        proxy(context, int(sys.argv[2]))
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print("port", server.server_address[1], flush=True)
    server.serve_forever()
    """#
