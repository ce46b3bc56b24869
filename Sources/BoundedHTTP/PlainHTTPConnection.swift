import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One `PlainHTTPExchange` on its own thread: resolve, connect, write the request, read the answer.
/// Blocking calls only, each bounded by `poll` on the socket and the cancellation's wakeup until
/// `end`. Used once, by one thread.
final class PlainHTTPConnection {
    private let wakeup: Wakeup
    private let end: ContinuousClock.Instant
    private let deadlineSeconds: Double
    private let maxBytes: Int
    private let lookup: @Sendable (String, Int) -> [PlainHTTPAddress]?
    private var socket: Int32 = -1
    /// Received bytes not yet taken: `buffer[start..<filled]`.
    private var buffer = [UInt8](repeating: 0, count: PlainHTTPExchange.bufferBytes)
    private var start = 0
    private var filled = 0
    private var receivedAny = false

    init(
        wakeup: Wakeup, end: ContinuousClock.Instant, deadlineSeconds: Double, maxBytes: Int,
        lookup: @escaping @Sendable (String, Int) -> [PlainHTTPAddress]?
    ) {
        self.wakeup = wakeup
        self.lookup = lookup
        self.end = end
        self.deadlineSeconds = deadlineSeconds
        self.maxBytes = max(0, maxBytes)
    }

    deinit {
        if socket >= 0 { close(socket) }
    }

    func exchange(_ request: HTTPRequest) throws(HTTPFailure) -> HTTPAnswer {
        let head = try PlainHTTPRequestHead.bytes(of: request)
        guard let host = request.url.host(percentEncoded: false), !host.isEmpty else {
            throw .transport("the URL has no host")
        }
        let port = request.url.port ?? 80
        guard (1...65535).contains(port) else { throw .transport("the URL's port \(port) is not a port") }
        try connect(host: host, port: port)
        // A server may answer (a 413, say) and close before taking the whole request: its answer
        // is still read, and the failed write reported only if there is none.
        var sendFailure: HTTPFailure?
        do throws(HTTPFailure) {
            try sendAll(head)
            if let body = request.body { try sendAll(body) }
        } catch {
            guard case .transport = error else { throw error }
            sendFailure = error
        }
        do throws(HTTPFailure) {
            return try readAnswer(method: request.method)
        } catch {
            guard case .transport(let words) = error else { throw error }
            // Whatever went wrong after the first byte of an answer, something did answer.
            if receivedAny { throw .malformedAnswer(words) }
            throw sendFailure ?? error
        }
    }

    // MARK: - Connecting and writing

    private func connect(host: String, port: Int) throws(HTTPFailure) {
        let shownHost = excerpt(Array(host.utf8))
        var lastError: Int32 = ECONNREFUSED
        let addresses = try addresses(of: host, port: port, shownHost: shownHost)
        for (index, address) in addresses.enumerated() {
            let kind = address.socketType | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let descriptor = Glibc.socket(address.family, kind, address.socketProtocol)
            if descriptor < 0 {
                lastError = errno
                continue
            }
            socket = descriptor
            var storage = address.storage
            let connected = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, address.length) }
            }
            if connected != 0 {
                lastError = errno
                if lastError == EINPROGRESS {
                    // Each address left has an equal share of the time left, so that one whose
                    // packets are dropped does not take the whole deadline from the next.
                    let share = (end - ContinuousClock.now) / (addresses.count - index)
                    if try wait(for: POLLOUT, until: index < addresses.count - 1 ? .now + share : nil) {
                        var failure: Int32 = 0
                        var length = socklen_t(MemoryLayout<Int32>.size)
                        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
                        lastError = failure
                    } else {
                        lastError = ETIMEDOUT
                    }
                }
            } else {
                lastError = 0
            }
            if lastError == 0 { return }
            close(descriptor)
            socket = -1
        }
        let shown = host.contains(":") ? "[\(shownHost)]" : shownHost
        throw .transport("cannot connect to \(shown):\(port) (\(Self.words(for: lastError)))")
    }

    /// An IP literal's address at once; a name's through `lookup` on a thread of its own, waited
    /// for within the deadline and the cancellation.
    private func addresses(of host: String, port: Int, shownHost: String) throws(HTTPFailure) -> [PlainHTTPAddress] {
        if let literal = PlainHTTPAddress.resolve(host, port: port, numericOnly: true) { return literal }
        guard let resolution = PlainHTTPResolution(host: host, port: port, lookup: lookup) else {
            throw .transport("cannot create a socket")
        }
        try wait(for: POLLIN, on: resolution.done.descriptor)
        guard let found = resolution.result else { throw .transport("cannot resolve \(shownHost)") }
        return found
    }

    /// Sends the bytes where they are (a body is not copied).
    private func sendAll(_ bytes: some ContiguousBytes) throws(HTTPFailure) {
        var failure: HTTPFailure?
        bytes.withUnsafeBytes { raw in
            do throws(HTTPFailure) {
                try sendAll(raw)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private func sendAll(_ bytes: UnsafeRawBufferPointer) throws(HTTPFailure) {
        var sent = 0
        while sent < bytes.count {
            try wait(for: POLLOUT)
            let count = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            if count >= 0 {
                sent += count
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                throw .transport("the server closed the connection while the request was sent")
            }
        }
    }

    // MARK: - Reading

    private func readAnswer(method: String) throws(HTTPFailure) -> HTTPAnswer {
        let (status, fields) = try readHead()
        let answer = { (body: Data) in HTTPAnswer(status: status, fields: fields, body: body) }
        if method.uppercased() == "HEAD" || status == 204 || status == 304 { return answer(Data()) }
        switch try PlainHTTPFraming(fields: fields) {
        case .chunked: return answer(try readChunked())
        case .length(let length):
            guard length <= maxBytes else { throw .tooBig(maxBytes: maxBytes) }
            // Reserved once (up to 16 MB) instead of regrown by doubling; only the pages written
            // become resident, so a server that announces and then stalls costs nothing.
            var body = Data(capacity: min(length, 16 << 20))
            try take(length, into: &body, missing: "the server closed the connection before the end of the body")
            return answer(body)
        case .tooLong: throw .tooBig(maxBytes: maxBytes)
        case .untilClosed: return answer(try readUntilClosed())
        }
    }

    /// The status and fields of the first answer that is not 1xx (`100 Continue` and the like
    /// are skipped; they count against the same `maxHeadBytes`).
    private func readHead() throws(HTTPFailure) -> (Int, [HTTPField]) {
        var budget = PlainHTTPExchange.maxHeadBytes
        while true {
            let statusLine: [UInt8]
            do throws(HTTPFailure) {
                statusLine = try headLine(budget: &budget)
            } catch {
                // A TLS alert, an SSH banner…: say so rather than that the head was cut or too long.
                let pending = buffer[start..<filled]
                guard case .transport = error, !pending.isEmpty, !zip(pending, "HTTP/".utf8).allSatisfy(==) else {
                    throw error
                }
                throw .transport(Self.notHTTP(pending))
            }
            guard let status = PlainHTTPFraming.status(of: statusLine) else {
                throw .transport(Self.notHTTP(statusLine[...]))
            }
            let fields = try readFields(budget: &budget)
            if status == 101 { throw .transport("the server switched protocols unasked") }
            if status >= 200 { return (status, fields) }
        }
    }

    /// Words for an answer that does not start as HTTP's: a TLS record (an alert or a handshake,
    /// content type 21 or 22, version 3.x) means an https:// server, which is worth saying.
    static func notHTTP(_ bytes: ArraySlice<UInt8>) -> String {
        let start = bytes.startIndex
        if bytes.count >= 2, bytes[start] == 0x15 || bytes[start] == 0x16, bytes[start + 1] == 0x03 {
            return "a TLS answer: the server speaks https://"
        }
        return "not an HTTP answer (\"\(excerpt(bytes))\")"
    }

    private func readFields(budget: inout Int) throws(HTTPFailure) -> [HTTPField] {
        var fields: [HTTPField] = []
        while true {
            let line = try headLine(budget: &budget)
            if line.isEmpty { return fields }
            if line[0] == 0x20 || line[0] == 0x09 {
                // An obsolete folded line continues the previous field's value (RFC 9112 §5.2).
                guard !fields.isEmpty else { throw .transport("a malformed header field") }
                fields[fields.count - 1].value += " " + PlainHTTPFraming.trimmed(line[...])
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
                line[..<colon].allSatisfy(HTTPRequest.isTokenByte)
            else {
                throw .transport("a malformed header field (\"\(excerpt(line))\")")
            }
            guard fields.count < PlainHTTPExchange.maxFields else {
                throw .transport("the answer has over \(PlainHTTPExchange.maxFields) header fields")
            }
            let value = PlainHTTPFraming.trimmed(line[(colon + 1)...])
            fields.append(HTTPField(String(decoding: line[..<colon], as: UTF8.self), value))
        }
    }

    private func headLine(budget: inout Int) throws(HTTPFailure) -> [UInt8] {
        let limit = PlainHTTPExchange.maxHeadBytes
        let (line, used) = try line(
            limit: budget, tooLong: .transport("the answer's header block is over \(limit) bytes"),
            missing: receivedAny
                ? "the server closed the connection in the middle of the answer's head"
                : "the server closed the connection without answering")
        budget -= used
        return line
    }

    private func readChunked() throws(HTTPFailure) -> Data {
        var body = Data()
        let missing = "the server closed the connection before the end of the chunked body"
        while true {
            let (sizeLine, _) = try line(
                limit: 4096, tooLong: .transport("a chunk-size line is too long"), missing: missing)
            let size = try PlainHTTPFraming.chunkSize(sizeLine)
            if size == 0 { break }
            guard size <= maxBytes - body.count else { throw .tooBig(maxBytes: maxBytes) }
            try take(size, into: &body, missing: missing)
            let (after, _) = try line(
                limit: 4096, tooLong: .transport("a chunk is longer than its size"), missing: missing)
            guard after.isEmpty else { throw .transport("a chunk is longer than its size") }
        }
        // Trailer fields are read (within their own budget) and dropped.
        var budget = PlainHTTPExchange.maxHeadBytes
        var count = 0
        while true {
            let (trailer, used) = try line(
                limit: budget, tooLong: .transport("the chunked body's trailers are too big"), missing: missing)
            budget -= used
            count += 1
            if trailer.isEmpty { return body }
            guard count <= PlainHTTPExchange.maxFields else {
                throw .transport("the chunked body's trailers are too big")
            }
        }
    }

    private func readUntilClosed() throws(HTTPFailure) -> Data {
        var body = Data()
        while true {
            if start == filled {
                // One byte past the cap is enough to know the answer is too big.
                let room = maxBytes - body.count
                let wanted = room < buffer.count ? room + 1 : buffer.count
                start = 0
                filled = 0
                if try receive(atMost: wanted) == 0 { return body }
            }
            guard filled - start <= maxBytes - body.count else { throw .tooBig(maxBytes: maxBytes) }
            append(filled - start, to: &body)
        }
    }

    /// Moves exactly `count` bytes of body into `body`, reading no more than they need.
    private func take(_ count: Int, into body: inout Data, missing: String) throws(HTTPFailure) {
        var left = count
        while left > 0 {
            if start == filled {
                start = 0
                filled = 0
                if try receive(atMost: min(buffer.count, left)) == 0 { throw .transport(missing) }
            }
            let part = min(left, filled - start)
            append(part, to: &body)
            left -= part
        }
    }

    private func append(_ count: Int, to body: inout Data) {
        buffer.withUnsafeBufferPointer { body.append($0.baseAddress! + start, count: count) }
        start += count
    }

    /// The next line (CRLF or a bare LF ends it, neither is returned) and the bytes it took;
    /// `tooLong` when it would take more than `limit` bytes.
    private func line(limit: Int, tooLong: HTTPFailure, missing: @autoclosure () -> String) throws(HTTPFailure) -> (
        [UInt8], Int
    ) {
        var searched = start
        while true {
            if let newline = buffer[searched..<filled].firstIndex(of: 0x0A) {
                let used = newline + 1 - start
                guard used <= limit else { throw tooLong }
                let lineEnd = newline > start && buffer[newline - 1] == 0x0D ? newline - 1 : newline
                let line = Array(buffer[start..<lineEnd])
                start = newline + 1
                return (line, used)
            }
            guard filled - start < min(limit, buffer.count) else { throw tooLong }
            compact()
            searched = filled
            if try receive(atMost: buffer.count - filled) == 0 { throw .transport(missing()) }
        }
    }

    /// Moves the bytes not yet taken to the buffer's start.
    private func compact() {
        guard start > 0 else { return }
        let count = filled - start
        buffer.withUnsafeMutableBytes { bytes in
            if count > 0 { memmove(bytes.baseAddress!, bytes.baseAddress! + start, count) }
        }
        start = 0
        filled = count
    }

    /// Reads at most `limit` bytes into the buffer after `filled`; 0 when the server closed.
    private func receive(atMost limit: Int) throws(HTTPFailure) -> Int {
        while true {
            try wait(for: POLLIN)
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + filled, limit, 0) }
            if count >= 0 {
                filled += count
                receivedAny = receivedAny || count > 0
                return count
            }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
            throw .transport(errno == ECONNRESET ? "the server reset the connection" : "reading the answer failed")
        }
    }

    /// Waits until the socket (or `descriptor`) is ready for `events` (true), within what is left of
    /// the deadline, or until `limit` if that comes first (false).
    @discardableResult
    private func wait(for events: Int32, on descriptor: Int32? = nil, until limit: ContinuousClock.Instant? = nil)
        throws(HTTPFailure) -> Bool
    {
        while true {
            let now = ContinuousClock.now
            guard end > now else { throw .deadline(seconds: deadlineSeconds) }
            if let limit, limit <= now { return false }
            let milliseconds = (min(end, limit ?? end) - now).pollMilliseconds
            var descriptors = [
                pollfd(fd: descriptor ?? socket, events: Int16(events), revents: 0),
                pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, milliseconds)
            if ready < 0 && errno != EINTR { throw .transport("cannot wait for the connection") }
            if descriptors[1].revents != 0 { throw .cancelled }
            if descriptors[0].revents != 0 { return true }
        }
    }

    private static func words(for error: Int32) -> String {
        switch error {
        case ECONNREFUSED: "refused"
        case ETIMEDOUT: "timed out"
        case ENETUNREACH, EHOSTUNREACH: "unreachable"
        default: String(cString: strerror(error)).lowercased()
        }
    }
}
