import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A flag set once, read from any thread.
public final class Completion: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    public init() {}

    public var isSet: Bool { lock.withLock { value } }
    public func set() { lock.withLock { value = true } }
}

/// One client on one kept-alive connection — as the app holds one — sending a GET again and
/// again until `stop` is set, timing each answer on its own thread (not in a task, which a busy
/// test process may leave waiting for a thread of the concurrency pool).
public enum KeepAliveProbe {
    /// The seconds of each answer to `GET path` on `127.0.0.1:port`, until `stop`; throws on a
    /// status other than 200.
    public static func run(port: Int, path: String, until stop: Completion) async throws -> [Double] {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try loop(port: port, path: path, stop: stop) }) }.start()
        }
    }

    private static func loop(port: Int, path: String, stop: Completion) throws -> [Double] {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestServerError("socket() failed") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestServerError("connect failed") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        var seconds: [Double] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !stop.isSet {
            let start = DispatchTime.now().uptimeNanoseconds
            guard request.withUnsafeBytes({ write(socket, $0.baseAddress, $0.count) }) == request.count else {
                throw TestServerError("write failed")
            }
            var reply: [UInt8] = []
            while !isComplete(reply) {
                let count = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
                guard count > 0 else { throw TestServerError("the connection closed") }
                reply += buffer[0..<count]
            }
            seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            guard reply.starts(with: Array("HTTP/1.1 200".utf8)) else { throw TestServerError("not 200") }
        }
        return seconds
    }

    /// Whether `reply` holds a whole answer: its head and `Content-Length` bytes of body.
    private static func isComplete(_ reply: [UInt8]) -> Bool {
        let text = String(decoding: reply, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<headEnd.lowerBound].lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return false }
        return text.utf8.count - text[..<headEnd.upperBound].utf8.count >= length
    }
}
