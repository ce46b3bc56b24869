import Foundation
import TestPatience

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to 127.0.0.1 with no HTTP client in the way: for tests that hold
/// connections open, trickle bytes, or watch for the server closing them.
public final class RawSocket: @unchecked Sendable {
    public let descriptor: Int32

    /// Connects to `port` on 127.0.0.1 (blocking, loopback: immediate).
    public init(port: Int) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestServerError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw TestServerError("connect() failed: errno \(code)")
        }
        self.descriptor = descriptor
    }

    /// Sends `text`; `false` once the connection is gone.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Whether the server has closed the connection (end of stream or reset), without waiting.
    /// Bytes the server sent before closing are read and dropped.
    public var isClosedByPeer: Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { continue }
            if count == 0 { return true }
            return errno != EAGAIN && errno != EWOULDBLOCK
        }
    }

    /// Everything the server sends until it closes the connection, or `nil` if it has not closed
    /// it within `seconds` (blocking reads, each bounded by what is left of `seconds`).
    public func readUntilClosed(seconds: Double) -> [UInt8]? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var received: [UInt8] = []
        while true {
            guard let chunk = receive(before: deadline) else { return nil }
            if chunk.isEmpty { return received }
            received += chunk
        }
    }

    /// `readUntilClosed` on a thread of its own, for async tests: on one of the tasks' few threads
    /// a blocking read holds up every in-process server of the run that needs that thread to
    /// answer. By default it waits as long as `Patience` allows.
    public func awaitClose(seconds: Double = Double(Patience.forAnEvent.components.seconds)) async -> [UInt8]? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.readUntilClosed(seconds: seconds)) }
        }
    }

    /// Reads until `text` has arrived (true), or the connection closes or `seconds` pass (false).
    public func read(until text: String, seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let wanted = Array(text.utf8)
        var received: [UInt8] = []
        while received.firstRange(of: wanted) == nil {
            guard let chunk = receive(before: deadline), !chunk.isEmpty else { return false }
            received += chunk
        }
        return true
    }

    /// One blocking read of what has arrived, waiting at most until `deadline`: the bytes, none
    /// when the server has closed the connection, `nil` when the deadline passed first.
    private func receive(before deadline: ContinuousClock.Instant) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&entry, 1, milliseconds) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            return count <= 0 ? [] : Array(buffer[..<count])
        }
    }

    /// Ends the connection in both directions now (the descriptor stays open until deinit).
    public func shutdownBoth() { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }

    deinit { Glibc.close(descriptor) }

    /// Raises this process's soft limit on open files to at least `count` (up to the hard limit).
    public static func raiseDescriptorLimit(to count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = limit.rlim_max == rlim_t.max ? rlim_t(count) : min(rlim_t(count), limit.rlim_max)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
