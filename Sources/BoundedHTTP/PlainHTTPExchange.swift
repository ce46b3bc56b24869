import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `http://` exchanges over a plain socket: HTTP/1.1, one exchange a connection (`Connection:
/// close`), read only as fast as the answer is consumed, so that no more than `maxBytes` of body
/// are ever held, and under one deadline that every wait (connect, each write, each read) shares.
///
/// The blocking work runs on a thread of its own, off Swift's cooperative pool
/// (`onThreadOfItsOwn`). Every wait is a `poll` on the socket and on a wakeup socket that the
/// awaiting task's cancellation signals, so a cancelled exchange ends at once. A host name is
/// resolved on another thread (`getaddrinfo` cannot be interrupted) and waited for the same way.
enum PlainHTTPExchange {
    /// The most an answer's header blocks may take together: its status line and fields, any 1xx
    /// heads before them (and, apart, the trailers of a chunked body).
    static let maxHeadBytes = 65536
    /// The most header fields an answer may have (and, apart, trailer fields).
    static let maxFields = 256
    /// The read buffer: the socket is read at most this many bytes at a time.
    static let bufferBytes = 65536

    /// One exchange, names resolved by `getaddrinfo`.
    static func exchange(_ request: HTTPRequest, maxBytes: Int, deadline: Duration) async throws(HTTPFailure)
        -> HTTPAnswer
    {
        try await exchange(request, maxBytes: maxBytes, deadline: deadline) {
            PlainHTTPAddress.resolve($0, port: $1, numericOnly: false)
        }
    }

    /// The exchange with another name lookup than `getaddrinfo` (a stand-in that takes its time, in
    /// tests); IP literals are not looked up.
    static func exchange(
        _ request: HTTPRequest, maxBytes: Int, deadline: Duration,
        lookup: @escaping @Sendable (String, Int) -> [PlainHTTPAddress]?
    ) async throws(HTTPFailure) -> HTTPAnswer {
        if Task.isCancelled { throw .cancelled }
        guard let wakeup = Wakeup() else { throw .transport("cannot create a socket") }
        let end = ContinuousClock.now + deadline
        let result = await withTaskCancellationHandler {
            await onThreadOfItsOwn { () -> Result<HTTPAnswer, HTTPFailure> in
                // The connection (and its socket) is gone before the caller resumes.
                do throws(HTTPFailure) {
                    let connection = PlainHTTPConnection(
                        wakeup: wakeup, end: end, deadlineSeconds: deadline.seconds, maxBytes: maxBytes,
                        lookup: lookup)
                    return .success(try connection.exchange(request))
                } catch {
                    return .failure(error)
                }
            }
        } onCancel: {
            wakeup.signal()
        }
        return try result.get()
    }
}

/// A one-shot signal another thread can `poll`: a socket pair whose reading end `signal()` makes
/// readable — the awaiting task's cancellation (watched by every wait of the exchange), a finished
/// name lookup. (Glibc's Swift module has no `eventfd`; a pipe would not be close-on-exec from its
/// creation.)
final class Wakeup: Sendable {
    /// The end to poll.
    let descriptor: Int32
    private let writer: Int32

    init?() {
        var pair: [Int32] = [-1, -1]
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &pair) == 0 else { return nil }
        descriptor = pair[0]
        writer = pair[1]
    }

    func signal() {
        var one: UInt8 = 1
        _ = send(writer, &one, 1, Int32(MSG_NOSIGNAL))
    }

    deinit {
        close(descriptor)
        close(writer)
    }
}

/// The head a `PlainHTTPExchange` sends before the body: the request line, the transport's
/// fields, the caller's fields in order (`BoundedHTTPClient` checked them: `HTTPRequest.check`).
enum PlainHTTPRequestHead {
    static func bytes(of request: HTTPRequest) throws(HTTPFailure) -> [UInt8] {
        let method = request.method
        let url = request.url
        guard let host = url.host(percentEncoded: false), !host.isEmpty else { throw .transport("the URL has no host") }
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        var authority = host.contains(":") ? "[\(host)]" : host
        if let port = url.port, port != 80 { authority += ":\(port)" }
        // The URL type keeps these percent-encoded; a decoded host could still hold anything.
        guard target.utf8.allSatisfy(isVisibleByte), authority.utf8.allSatisfy(isVisibleByte) else {
            throw .transport("the URL cannot be sent as it is")
        }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n"
        if let body = request.bodyToSend { head += "Content-Length: \(body.count)\r\n" }
        for field in request.fields {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8)
    }

    private static func isVisibleByte(_ byte: UInt8) -> Bool { (0x21...0x7E).contains(byte) }
}
