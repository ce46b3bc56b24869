import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback server that answers every connection with exactly the bytes it is given (duplicate
/// fields, broken framing, a huge announced length, nothing at all), and records each request's
/// raw bytes. `StandInServer` writes its own head from a dictionary, so it cannot send these.
/// Each connection: read the request head and its `Content-Length` body (not when `readsBody` is
/// false: the body is then left unread, and closing sends RST), signal `received`, send
/// `reply`, then close, or reset the connection (`thenReset`), or (`thenSilent`) keep it open,
/// sending nothing, until the client closes it (signalled on `closedByClient`) or `stop()`.
public final class RawHTTPServer: @unchecked Sendable {
    public let port: UInt16
    /// One element each time a whole request has arrived.
    public let received: AsyncStream<Void>
    /// One element each time a silent connection is closed by the client.
    public let closedByClient: AsyncStream<Void>
    private let receivedContinuation: AsyncStream<Void>.Continuation
    private let closedContinuation: AsyncStream<Void>.Continuation
    private let listener: Int32
    private let reply: [UInt8]
    private let thenSilent: Bool
    private let thenReset: Bool
    private let readsBody: Bool
    private let lock = NSLock()
    private var raw: [[UInt8]] = []
    private var acceptedCount = 0
    /// Connections not yet closed: `stop()` shuts them down (closed ones are not touched, their
    /// descriptor number may already belong to someone else).
    private var open: Set<Int32> = []

    /// The requests so far, as text (head and body).
    public var requests: [String] { lock.withLock { raw.map { String(decoding: $0, as: UTF8.self) } } }
    /// How many connections were accepted.
    public var accepted: Int { lock.withLock { acceptedCount } }

    public init(
        ipv6: Bool = false, reply: [UInt8], thenSilent: Bool = false, thenReset: Bool = false, readsBody: Bool = true
    ) throws {
        self.reply = reply
        self.readsBody = readsBody
        self.thenSilent = thenSilent
        self.thenReset = thenReset
        (received, receivedContinuation) = AsyncStream.makeStream()
        (closedByClient, closedContinuation) = AsyncStream.makeStream()
        signal(SIGPIPE, SIG_IGN)
        (listener, port) = try loopbackListener(ipv6: ipv6)
        acceptConnections(on: listener) { [self] connection in
            lock.withLock {
                acceptedCount += 1
                open.insert(connection)
            }
            serve(connection)
        }
    }

    public convenience init(
        ipv6: Bool = false, _ reply: String, thenSilent: Bool = false, thenReset: Bool = false, readsBody: Bool = true
    ) throws {
        try self.init(
            ipv6: ipv6, reply: Array(reply.utf8), thenSilent: thenSilent, thenReset: thenReset, readsBody: readsBody)
    }

    /// Whether a silent connection is closed by the client within `limit` (the limit only bounds
    /// a test that would otherwise hang; the test acts on the close).
    public func closedByClient(within limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in self.closedByClient { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Stops accepting (the accept loop closes the listener: `acceptConnections`) and ends every
    /// connection still open.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        lock.withLock {
            for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    private func serve(_ connection: Int32) {
        defer {
            lock.withLock {
                open.remove(connection)
                close(connection)
            }
        }
        var request = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        var bodyLength: Int?
        var headEnd = 0
        while request.count < 16 << 20 {
            if let length = bodyLength, request.count >= headEnd + length { break }
            let count = read(connection, &chunk, chunk.count)
            if count <= 0 { return }
            request += chunk[..<count]
            if bodyLength == nil, let end = request.firstRange(of: Array("\r\n\r\n".utf8)) {
                headEnd = end.upperBound
                let head = String(decoding: request[..<end.lowerBound], as: UTF8.self).lowercased()
                let field = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                bodyLength =
                    !readsBody ? 0 : field.flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
            }
        }
        lock.withLock { raw.append(request) }
        receivedContinuation.yield()
        var sent = 0
        while sent < reply.count {
            let count = reply[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            if count <= 0 { return }
            sent += count
        }
        if thenReset {
            // A zero linger time makes close() send RST instead of FIN.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        guard thenSilent else { return }
        while read(connection, &chunk, chunk.count) > 0 {}
        closedContinuation.yield()
    }
}
