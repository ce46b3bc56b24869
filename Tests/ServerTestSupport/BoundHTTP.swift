import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 request over a plain socket whose *source* address is chosen (bound before
/// connecting): a client at 127.0.0.2 talking to a server on 127.0.0.1, as another machine
/// would. Each request runs on its own thread, so hundreds can be in flight at once.
public enum BoundHTTP {
    /// Sends `method path` with a JSON `body` to `127.0.0.1:port` from `source`; the reply is
    /// read until the server closes (`Connection: close`).
    public static func send(
        _ method: String, _ port: Int, _ path: String, json body: String? = nil, from source: String = "127.0.0.1"
    ) async throws -> RawHTTP.Reply {
        try await timed(method, port, path, json: body, from: source).reply
    }

    /// `send`, and the seconds from connecting to the last byte of the answer, measured on the
    /// request's own thread (so a busy test process, whose tasks wait for the few threads of
    /// the concurrency pool, does not add to the server's time).
    public static func timed(
        _ method: String, _ port: Int, _ path: String, json body: String? = nil, from source: String = "127.0.0.1"
    ) async throws -> (reply: RawHTTP.Reply, seconds: Double) {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(
                    with: Result {
                        let start = DispatchTime.now().uptimeNanoseconds
                        let reply = try exchange(method, port: port, path, body: body, source: source)
                        return (reply, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                    })
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    private static func exchange(_ method: String, port: Int, _ path: String, body: String?, source: String) throws -> RawHTTP.Reply {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestServerError("socket() failed: \(errno)") }
        defer { close(socket) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var local = address(source, port: 0)
        var server = address("127.0.0.1", port: port)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw TestServerError("bind(\(source)) failed: \(errno)") }
        let connected = withUnsafePointer(to: &server) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestServerError("connect failed: \(errno)") }
        let payload = Array((body ?? "").utf8)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if body != nil { head += "Content-Type: application/json\r\n" }
        head += "Content-Length: \(payload.count)\r\n\r\n"
        let request = Array(head.utf8) + payload
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
            guard written > 0 else { throw TestServerError("write failed: \(errno)") }
            sent += written
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if count < 0 { throw TestServerError("read failed: \(errno)") }
            if count == 0 { break }
            reply += buffer[0..<count]
        }
        return try parse(reply)
    }

    private static func address(_ text: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, text, &address.sin_addr)
        return address
    }

    /// Status, headers and body of an HTTP/1.1 answer (body by Content-Length, or chunked).
    private static func parse(_ bytes: [UInt8]) throws -> RawHTTP.Reply {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = (0...max(0, bytes.count - 4)).first(where: { Array(bytes[$0..<min($0 + 4, bytes.count)]) == separator }) else {
            throw TestServerError("no HTTP answer (\(bytes.count) bytes)")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            // Repeated fields (two Set-Cookie) are joined with ", ", as URLSession joins them.
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        var body = Array(bytes[(end + 4)...])
        if headers.first(where: { $0.key.lowercased() == "transfer-encoding" })?.value.lowercased() == "chunked" {
            body = dechunk(body)
        }
        return RawHTTP.Reply(status: status, headers: headers, body: Data(body))
    }

    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = (index..<bytes.count - 1).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 }),
                let size = Int(String(decoding: bytes[index..<lineEnd], as: UTF8.self), radix: 16), size > 0
            else { break }
            let start = lineEnd + 2
            output += bytes[start..<min(start + size, bytes.count)]
            index = start + size + 2
        }
        return output
    }
}
