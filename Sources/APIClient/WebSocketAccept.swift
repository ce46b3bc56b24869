import CNettle
import Foundation

/// RFC 6455 §4.1–4.2.2: the `Sec-WebSocket-Accept` a server must answer a `Sec-WebSocket-Key`
/// with — the base64 of the SHA-1 of the key and the protocol's GUID. A client that does not check
/// it could take any HTTP server's (or a caching proxy's) stray 101 for a WebSocket.
enum WebSocketAccept {
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The answer to `key` (the base64 text sent in `Sec-WebSocket-Key`).
    static func expected(forKey key: String) -> String {
        var context = sha1_ctx()
        nettle_sha1_init(&context)
        let message = Array((key + guid).utf8)
        message.withUnsafeBufferPointer { nettle_sha1_update(&context, $0.count, $0.baseAddress) }
        var digest = [UInt8](repeating: 0, count: Int(SHA1_DIGEST_SIZE))
        digest.withUnsafeMutableBufferPointer { nettle_sha1_digest(&context, $0.count, $0.baseAddress) }
        return Data(digest).base64EncodedString()
    }

    /// The value of `name` in an HTTP head (its first line skipped), matched without case; `nil`
    /// when absent.
    static func header(_ name: String, in head: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
