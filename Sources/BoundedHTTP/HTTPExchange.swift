import Foundation

/// One header field, as sent or as received (the name's case kept; compare without it).
public struct HTTPField: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// One HTTP request: `http://` or `https://` URL, method, header fields, an optional body.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    /// Sent in this order after the transport's own (`Host`, `Content-Length`, `Connection`).
    public var fields: [HTTPField]
    public var body: Data?

    public init(method: String = "GET", url: URL, fields: [HTTPField] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.fields = fields
        self.body = body
    }
}

extension HTTPRequest {
    /// Fields the transports write themselves; a request that sets one is refused.
    static let transportFields: Set<String> = ["host", "content-length", "connection", "transfer-encoding"]

    /// Refuses, before anything is sent, a request that could not be sent as it is: a method or a
    /// field name that is not an HTTP token (RFC 9110 §5.6.2), a value with CR, LF or NUL (which
    /// would start a field or a request of its own), a field the transport writes.
    func check() throws(HTTPFailure) {
        guard !method.isEmpty, method.utf8.allSatisfy(Self.isTokenByte) else {
            throw .transport("a malformed request method (\"\(excerpt(method.utf8))\")")
        }
        for field in fields {
            let name = excerpt(field.name.utf8)
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(Self.isTokenByte) else {
                throw .transport("a request field's name is malformed (\"\(name)\")")
            }
            guard !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw .transport("the request field \(name) holds CR, LF or NUL")
            }
            guard !Self.transportFields.contains(field.name.lowercased()) else {
                throw .transport("the request field \(name) is written by the transport")
            }
        }
    }

    /// A byte of an HTTP token: a method or a field name.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// The body the transports send: the request's, or an empty one for a method that carries
    /// one (`Content-Length: 0` rather than none); nil for none.
    var bodyToSend: Data? {
        body ?? (["POST", "PUT", "PATCH"].contains(method.uppercased()) ? Data() : nil)
    }
}

/// At most 40 bytes, printable ASCII only (anything else becomes `?`), for the words of a
/// failure: what a caller or a server sent is never echoed raw.
func excerpt(_ bytes: some Collection<UInt8>) -> String {
    let shown = bytes.prefix(40).map { (0x20...0x7E).contains($0) ? Character(Unicode.Scalar($0)) : "?" }
    return String(shown) + (bytes.count > 40 ? "…" : "")
}

/// Runs a blocking call (a socket exchange, `curl_easy_perform`, the app's LiveQuery socket) on a
/// thread of its own, off Swift's cooperative pool.
public func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}

extension [HTTPField] {
    /// The values of every field of that name (any case), in order.
    func values(of name: String) -> [String] {
        filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }
}

/// A whole answer: its status, its header fields in the order received, and its body (never
/// more than the exchange's cap).
public struct HTTPAnswer: Sendable {
    public var status: Int
    public var fields: [HTTPField]
    public var body: Data

    public init(status: Int, fields: [HTTPField], body: Data) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    /// The first field of that name (any case).
    public func value(of name: String) -> String? { fields.values(of: name).first }

    /// Every field of that name (any case), in order: `Set-Cookie` comes once a cookie.
    public func values(of name: String) -> [String] { fields.values(of: name) }

    /// The value of the cookie `name` that the answer sets (`Set-Cookie: name=value; …`).
    public func cookie(named name: String) -> String? {
        for header in values(of: "Set-Cookie") {
            let pair = header.prefix { $0 != ";" }
            guard let equals = pair.firstIndex(of: "=") else { continue }
            if pair[..<equals].trimmingCharacters(in: .whitespaces) == name {
                return pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

/// Why an exchange has no answer.
public enum HTTPFailure: Error, Sendable, Equatable {
    /// The answer (its announced length, or the bytes read so far) passed the cap; reading
    /// stopped there.
    case tooBig(maxBytes: Int)
    /// The whole exchange, from connecting to the body's last byte, took longer than the deadline.
    case deadline(seconds: Double)
    /// The task waiting for it was cancelled.
    case cancelled
    /// No secure connection to an `https://` server: the TLS handshake failed or the server's
    /// certificate was not accepted (not trusted, expired, for another name); libcurl's words.
    case insecure(String)
    /// Something answered, but not as HTTP/1.1 allows: not HTTP at all (a TLS alert, an SSH
    /// banner), a malformed head or framing, or an answer cut short; the words say which. Not a
    /// server that cannot be reached: the address reaches a program, perhaps the wrong one.
    case malformedAnswer(String)
    /// No answer at all: not resolved, refused, reset or closed before a byte came back; the
    /// words say which.
    case transport(String)
}

/// One bounded exchange: whatever the server does, at most `maxBytes` of body are read (bigger
/// answers are refused however they are framed, and reading stops at the cap) and the whole
/// exchange ends within `deadline`.
public protocol HTTPExchanging: Sendable {
    func exchange(_ request: HTTPRequest, maxBytes: Int, deadline: Duration) async throws(HTTPFailure) -> HTTPAnswer
}

/// The app's and the servers' HTTP client: `http://` over a plain socket read only as fast as it
/// is consumed (`PlainHTTPExchange`), `https://` through the system's libcurl, loaded the first
/// time an `https://` URL is asked for (`CurlExchange`), so that a class on `http://` never maps
/// libcurl and its TLS libraries. One connection an exchange, no cookies kept, no cache, no
/// redirects followed, no content decoding.
public struct BoundedHTTPClient: HTTPExchanging {
    /// A CA bundle to trust instead of the system's (tests with their own certificate).
    public var caFile: String?

    public init(caFile: String? = nil) {
        self.caFile = caFile
    }

    public func exchange(_ request: HTTPRequest, maxBytes: Int, deadline: Duration) async throws(HTTPFailure)
        -> HTTPAnswer
    {
        try request.check()
        switch request.url.scheme?.lowercased() {
        case "http":
            return try await PlainHTTPExchange.exchange(request, maxBytes: maxBytes, deadline: deadline)
        case "https":
            return try await CurlExchange.exchange(request, maxBytes: maxBytes, deadline: deadline, caFile: caFile)
        default:
            throw .transport("not an http:// or https:// URL")
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Whole milliseconds, at least 1 and at most 10^12 (libcurl's timeouts: 0 would mean none,
    /// and `Int64.max` seconds overflows).
    var libcurlMilliseconds: Int64 { Int64(min(max(seconds * 1000, 1), 1e12)) }

    /// Whole milliseconds for `poll`, rounded up (a wait of 0.3 ms is not a busy 0), from 0 (the
    /// past) to `Int32.max`.
    var pollMilliseconds: Int32 { Int32(min(max((seconds * 1000).rounded(.up), 0), Double(Int32.max))) }
}
