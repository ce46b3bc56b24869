import CCurl
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TLS connection to an `https://` server that carries raw bytes both ways, made and checked by
/// the system's libcurl as an `https://` exchange is (the system's CAs or `caFile`, the name, no
/// proxy): what a `wss://` WebSocket runs on. Blocking calls, each bounded by `poll` on the
/// connection's socket; run them off the cooperative pool (`onThreadOfItsOwn`). One reader and
/// any writers may use it at once: every libcurl call is made under one lock, and `shutdown`
/// (from any thread) wakes a waiting read.
public final class TLSStream: @unchecked Sendable {
    private let stream: OpaquePointer
    private let socket: Int32
    private let lock = NSLock()

    /// Connects to `url`'s host and port and completes the TLS handshake within `deadline`.
    public init(url: URL, deadline: Duration, caFile: String? = nil) throws(HTTPFailure) {
        guard url.scheme == "https" else { throw .transport("not an https:// URL") }
        var made: OpaquePointer?
        var socket: Int32 = -1
        var error = [CChar](repeating: 0, count: 256)
        let outcome = otm_curl_stream_open(
            url.absoluteString, deadline.libcurlMilliseconds, caFile, &made, &socket, &error)
        guard outcome == OTM_CURL_DONE else {
            throw HTTPFailure(
                outcome, words: error.withUnsafeBytes { curlWords($0) }, maxBytes: 0, deadline: deadline)
        }
        guard let made else { throw .transport("libcurl gave no connection") }
        stream = made
        self.socket = socket
    }

    deinit {
        otm_curl_stream_close(stream)
    }

    /// Writes all of `bytes`, waiting for room at most `timeout` each time; false once the
    /// connection failed, was shut down, or stayed full that long.
    public func write(_ bytes: [UInt8], timeout: Duration) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = lock.withLock {
                bytes.withUnsafeBytes { otm_curl_stream_send(stream, $0.baseAddress! + sent, $0.count - sent) }
            }
            if count < 0 { return false }
            if count == 0, !wait(for: Int16(POLLOUT), timeout: timeout) { return false }
            sent += count
        }
        return true
    }

    /// Up to `limit` bytes, waiting at most `timeout` for the first; nil when the server closed
    /// the connection, it failed or was shut down, or nothing came in time.
    public func read(atMost limit: Int, timeout: Duration) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: limit)
        while true {
            let count = lock.withLock {
                bytes.withUnsafeMutableBytes { otm_curl_stream_receive(stream, $0.baseAddress, $0.count) }
            }
            if count > 0 { return Array(bytes[..<count]) }
            if count != -2 { return nil }
            // Nothing decrypted yet: wait for the socket (a partial TLS record comes back here).
            guard wait(for: Int16(POLLIN), timeout: timeout) else { return nil }
        }
    }

    /// Ends the connection for both directions: a waiting `read` returns nil. Safe from any
    /// thread (a plain `shutdown` of libcurl's socket, not a libcurl call).
    public func shutdown() {
        _ = Glibc.shutdown(socket, Int32(SHUT_RDWR))
    }

    private func wait(for events: Int16, timeout: Duration) -> Bool {
        var entry = pollfd(fd: socket, events: events, revents: 0)
        let end = ContinuousClock.now + timeout
        while true {
            let ready = poll(&entry, 1, (end - ContinuousClock.now).pollMilliseconds)
            if ready > 0 { return true }
            if ready == 0 || errno != EINTR { return false }
        }
    }
}
