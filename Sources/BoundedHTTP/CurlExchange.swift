import CCurl
import Foundation

/// `https://` exchanges through the system's libcurl (CCurl), loaded the first time one is asked
/// for. One connection an exchange, HTTP/1.1, no redirects, no proxy, no content decoding; the body
/// is capped (an announced length over the cap is refused unread, a longer body stops at the cap)
/// and the whole exchange ends within the deadline, or about a second after its task is cancelled.
enum CurlExchange {
    static func exchange(_ request: HTTPRequest, maxBytes: Int, deadline: Duration, caFile: String?)
        async throws(HTTPFailure) -> HTTPAnswer
    {
        // `BoundedHTTPClient` checked the method and fields (`HTTPRequest.check`).
        let method = request.method.uppercased()
        if Task.isCancelled { throw .cancelled }
        let transfer = CurlTransfer()
        let outcome = await withTaskCancellationHandler {
            await onThreadOfItsOwn {
                transfer.perform(request, method: method, maxBytes: maxBytes, deadline: deadline, caFile: caFile)
            }
        } onCancel: {
            transfer.cancel()
        }
        guard outcome == OTM_CURL_DONE else {
            throw HTTPFailure(outcome, words: transfer.error, maxBytes: maxBytes, deadline: deadline)
        }
        return HTTPAnswer(status: transfer.status, fields: transfer.fields, body: transfer.body)
    }
}

extension HTTPFailure {
    /// The failure of an exchange or a TLS stream that CCurl ended with `outcome` (not
    /// OTM_CURL_DONE); `words` are libcurl's.
    init(_ outcome: otm_curl_outcome, words: String, maxBytes: Int, deadline: Duration) {
        switch outcome {
        case OTM_CURL_TOO_BIG: self = .tooBig(maxBytes: maxBytes)
        case OTM_CURL_DEADLINE: self = .deadline(seconds: deadline.seconds)
        case OTM_CURL_CANCELLED: self = .cancelled
        case OTM_CURL_INSECURE: self = .insecure(words)
        case OTM_CURL_UNAVAILABLE: self = .transport("https:// needs libcurl (Debian: apt install libcurl4)")
        case OTM_CURL_MALFORMED: self = .malformedAnswer(words)
        default: self = .transport(words)
        }
    }
}

/// One exchange's C state and what it collects. The performing thread alone touches the collected
/// body and fields until `perform` returns; `cancel` (any thread) only sets CCurl's atomic flag.
private final class CurlTransfer: @unchecked Sendable {
    private let state = UnsafeMutablePointer<otm_curl_exchange>.allocate(capacity: 1)
    private(set) var body = Data()
    private(set) var fields: [HTTPField] = []
    var status: Int { state.pointee.status }

    init() {
        state.initialize(to: otm_curl_exchange())
    }

    deinit {
        state.deallocate()
    }

    func cancel() {
        otm_curl_cancel(state)
    }

    /// libcurl's words for a failure, one short line without control characters.
    var error: String { withUnsafeBytes(of: state.pointee.error) { curlWords($0) } }

    func perform(_ request: HTTPRequest, method: String, maxBytes: Int, deadline: Duration, caFile: String?)
        -> otm_curl_outcome
    {
        // libcurl adds Accept: */* always, Content-Type (form) and Expect: 100-continue to bodies; an
        // empty "Name:" removes each, so that the fields sent are the request's, as on http://.
        var lines = request.fields.map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
        for name in ["Accept", "Content-Type", "Expect"] where request.fields.values(of: name).isEmpty {
            lines.append("\(name):")
        }
        let cLines = lines.map { strdup($0) }
        defer { for line in cLines { free(line) } }
        let cMethod = strdup(method)
        let cURL = strdup(request.url.absoluteString)
        let cCAFile = caFile.flatMap { strdup($0) }
        defer { for string in [cMethod, cURL, cCAFile] { free(string) } }
        let body = request.bodyToSend

        return cLines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headerLines in
            (body ?? Data()).withUnsafeBytes { bodyBytes in
                state.pointee.method = UnsafePointer(cMethod)
                state.pointee.url = UnsafePointer(cURL)
                state.pointee.header_lines = headerLines.baseAddress
                state.pointee.header_count = headerLines.count
                state.pointee.body = bodyBytes.baseAddress
                state.pointee.body_size = bodyBytes.count
                state.pointee.has_body = body == nil ? 0 : 1
                state.pointee.max_bytes = Int64(max(0, maxBytes))
                state.pointee.timeout_ms = deadline.libcurlMilliseconds
                state.pointee.ca_file = UnsafePointer(cCAFile)
                state.pointee.context = Unmanaged.passUnretained(self).toOpaque()
                state.pointee.on_body = { context, bytes, size in
                    guard let context, let bytes else { return }
                    Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().body.append(
                        UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: size)
                }
                state.pointee.on_header = { context, line, size in
                    guard let context, let line else { return }
                    let text = String(decoding: UnsafeRawBufferPointer(start: line, count: size), as: UTF8.self)
                    Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().received(headerLine: text)
                }
                return otm_curl_perform(state)
            }
        }
    }

    /// Keeps the final answer's fields: a status line (the final one, or after 100 Continue) starts
    /// them afresh; a line without a colon (the blank end) is not a field. A chunked answer's
    /// trailer fields, if any, come after its head's.
    private func received(headerLine: String) {
        let line = headerLine.trimmingCharacters(in: .newlines)
        if line.hasPrefix("HTTP/") {
            fields.removeAll()
        } else if line.first == " " || line.first == "\t", !fields.isEmpty {
            // An obsolete folded line continues the field before it.
            fields[fields.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
        } else if let colon = line.firstIndex(of: ":") {
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            fields.append(HTTPField(String(line[..<colon]), value))
        }
    }
}

/// libcurl's words in a NUL-terminated error buffer, as one short line without control characters.
func curlWords(_ buffer: UnsafeRawBufferPointer) -> String {
    let words = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
    let line = String(words.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
    return line.isEmpty ? "https exchange failed" : String(line.prefix(160))
}
