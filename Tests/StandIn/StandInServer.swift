import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 that answers every request from a handler — recorded
/// geocoder answers, a hostile server's error bodies, an endpoint the real server does not have
/// yet — one connection at a time, and remembers what it was asked. Bodies are bytes, so an answer
/// can carry raw control characters or invalid UTF-8 exactly as a hostile server would send them.
public final class StandInServer: @unchecked Sendable {
    /// One request as it arrived.
    public struct Request: Sendable {
        public let method: String
        /// The path and query, as sent (`/v1/StudentLocation?limit=100…`).
        public let target: String
        /// Header names lowercased.
        public let headers: [String: String]
        public let body: Data
        public let time: ContinuousClock.Instant
    }

    /// One answer: status, extra headers (`Retry-After`…), body bytes (sent as JSON unless a
    /// `Content-Type` header says otherwise).
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data

        public init(status: Int, headers: [String: String] = [:], body: Data) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        public init(status: Int, headers: [String: String] = [:], _ body: String) {
            self.init(status: status, headers: headers, body: Data(body.utf8))
        }
    }

    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (Request) -> Response
    private let lock = NSLock()
    private var received: [Request] = []

    /// Every request so far, in order.
    public var requests: [Request] { lock.withLock { received } }

    public init(handler: @escaping @Sendable (Request) -> Response) throws {
        self.handler = handler
        (listener, port) = try loopbackListener(backlog: 64)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// A server that answers by the request target alone: `(status, body)`.
    public static func answering(_ answer: @escaping @Sendable (String) -> (status: Int, body: String)) throws
        -> StandInServer
    {
        try StandInServer { request in
            let (status, body) = answer(request.target)
            return Response(status: status, body)
        }
    }

    /// Stops accepting: the accept loop ends and closes the listener itself (see
    /// `acceptConnections` for why not here).
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    public var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                close(listener)
                return
            }
            handle(connection)
            close(connection)
        }
    }

    private func handle(_ connection: Int32) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headEnd: Int?
        var bodyLength = 0
        // The head, then as much body as Content-Length says (capped: a stand-in, not a server).
        while data.count < 1_048_576 {
            if let end = headEnd, data.count >= end + bodyLength { break }
            let n = read(connection, &buffer, buffer.count)
            if n <= 0 { break }
            data += buffer[0..<n]
            if headEnd == nil, let range = data.firstRange(of: [13, 10, 13, 10]) {
                headEnd = range.upperBound
                let head = String(decoding: data[..<range.lowerBound], as: UTF8.self).lowercased()
                if let line = head.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }) {
                    bodyLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        let end = headEnd ?? data.count
        let lines = String(decoding: data[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let request = Request(
            method: requestLine.first.map(String.init) ?? "GET",
            target: requestLine.dropFirst().first.map(String.init) ?? "/", headers: headers,
            body: Data(data[min(end, data.count)...].prefix(bodyLength)), time: ContinuousClock().now)
        lock.withLock { received.append(request) }
        let answer = handler(request)
        var head = "HTTP/1.1 \(answer.status) \(answer.status == 200 ? "OK" : "Error")\r\n"
        var fields = answer.headers
        if !fields.keys.contains(where: { $0.lowercased() == "content-type" }) { fields["Content-Type"] = "application/json" }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(answer.body.count)\r\nConnection: close\r\n\r\n"
        let all = Array(head.utf8) + Array(answer.body)
        var sent = 0
        while sent < all.count {
            let n = all[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            sent += n
        }
    }
}

/// A port on 127.0.0.1 that refuses every connection until the process ends. The socket stays
/// bound but never listens: a port closed again at once could be handed to a server another test
/// starts meanwhile (CI once saw a Facebook outage test reach a stand-in that said "not valid").
public func closedPort() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
}

/// Accepts connections on `listener` on a thread of its own and hands each to `serve` on a thread
/// of its own, until the listener is shut down (`shutdown(listener, SHUT_RDWR)`); then the loop
/// closes the listener itself. A `stop()` that closed it instead would race the loop: its next
/// `accept` could take another test's listener given the freed descriptor number, and answer its
/// clients.
public func acceptConnections(on listener: Int32, serve: @escaping @Sendable (Int32) -> Void) {
    Thread {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                close(listener)
                return
            }
            Thread { serve(connection) }.start()
        }
    }.start()
}

/// A TCP socket listening on a free port of the loopback address (127.0.0.1, or ::1 when `ipv6`),
/// and that port (the stand-ins' one way in).
public func loopbackListener(ipv6: Bool = false, backlog: Int32 = 16) throws -> (fd: Int32, port: UInt16) {
    let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
    var storage = sockaddr_storage()
    var length: socklen_t
    if ipv6 {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
    } else {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
    }
    let bound = withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0, Glibc.listen(descriptor, backlog) == 0 else {
        close(descriptor)
        throw POSIXError(.EADDRINUSE)
    }
    _ = withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    let port = withUnsafeBytes(of: storage) {
        ipv6 ? $0.load(as: sockaddr_in6.self).sin6_port : $0.load(as: sockaddr_in.self).sin_port
    }
    return (descriptor, UInt16(bigEndian: port))
}
