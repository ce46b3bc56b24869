import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A hostile HTTP/1.1 server on 127.0.0.1 for the byte caps and deadlines of clients: to every
/// request it answers 200 with a JSON-looking body that is either huge (`bytes` or `chunked`, written
/// in 64 KB chunks as fast as the reader takes them, never held whole) or dripped one byte every
/// `interval` seconds, for ever. A thread per connection; a closed connection ends its thread.
public final class FloodingServer: @unchecked Sendable {
    public enum Mode: Sendable {
        /// `count` bytes, announced in `Content-Length` when `announced`, else until closed.
        case bytes(Int, announced: Bool)
        /// `count` bytes in `Transfer-Encoding: chunked`, 64 KB a chunk.
        case chunked(Int)
        /// A byte every `interval` seconds, no length, never finished.
        case drip(interval: Double)
    }

    public let port: UInt16
    private let listener: Int32
    private let mode: Mode

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

    public init(_ mode: Mode) throws {
        self.mode = mode
        signal(SIGPIPE, SIG_IGN)
        (listener, port) = try loopbackListener(backlog: 16)
        acceptConnections(on: listener) { [self] connection in
            answer(connection)
            close(connection)
        }
    }

    /// Stops accepting: the accept loop ends and closes the listener (`acceptConnections`).
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func answer(_ connection: Int32) {
        // The request head (any body is ignored).
        var buffer = [UInt8](repeating: 0, count: 8192)
        var head = [UInt8]()
        while head.firstRange(of: [13, 10, 13, 10]) == nil, head.count < 65536 {
            let n = read(connection, &buffer, buffer.count)
            if n <= 0 { return }
            head += buffer[0..<n]
        }
        switch mode {
        case .bytes(let count, let announced):
            let length = announced ? "Content-Length: \(count)\r\n" : ""
            guard send(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(length)Connection: close\r\n\r\n") else { return }
            let chunk = [UInt8](repeating: UInt8(ascii: " "), count: 65536)
            var sent = 0
            guard send(connection, Array(#"{"results":["#.utf8)) else { return }
            while sent < count {
                let part = min(chunk.count, count - sent)
                guard write(connection, chunk, part) == part else { return }
                sent += part
            }
        case .chunked(let count):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            guard send(connection, head) else { return }
            // 0x10000 = 65,536 bytes a chunk.
            let chunk =
                Array("10000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 65536) + Array("\r\n".utf8)
            var sent = 0
            while sent < count {
                guard send(connection, chunk) else { return }
                sent += 65536
            }
            _ = send(connection, "0\r\n\r\n")
        case .drip(let interval):
            guard send(connection, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n") else { return }
            while send(connection, [UInt8(ascii: " ")]) {
                Thread.sleep(forTimeInterval: interval)
            }
        }
    }

    private func send(_ connection: Int32, _ text: String) -> Bool { send(connection, Array(text.utf8)) }

    private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }
}
