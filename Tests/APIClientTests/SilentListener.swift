import Foundation
import StandIn

#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket on 127.0.0.1 that accepts connections into its backlog and never answers:
/// a server that hangs.
final class SilentListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let (descriptor, port) = try loopbackListener()
        self.descriptor = descriptor
        self.port = Int(port)
    }

    func close() { _ = Glibc.close(descriptor) }
}

/// A program on 127.0.0.1 that is not an HTTP server: it reads each request's head, writes
/// `reply` (a TLS alert, an SSH banner) and closes.
final class NotHTTPListener: Sendable {
    let port: Int

    init(reply: [UInt8]) throws {
        let (listener, port) = try loopbackListener()
        self.port = Int(port)
        acceptConnections(on: listener) { connection in
            var head: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !head.contains(subsequence: Array("\r\n\r\n".utf8)), head.count < 65536 {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count <= 0 { break }
                head += buffer[..<count]
            }
            _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            _ = Glibc.close(connection)
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(subsequence: [UInt8]) -> Bool { firstRange(of: subsequence) != nil }
}
