import CNettle

/// SHA-256 and HMAC-SHA256 from Debian's libnettle (a maintained implementation, through the
/// `CNettle` system library): hashes of session ids, XSRF tokens and invite codes at rest, the
/// session seal, and Facebook's `appsecret_proof`. The core is linked by the terminal app's
/// built-in server too, which compiles no BoringSSL, so the core uses nettle in both executables.
package enum SHA256 {
    /// The 32-byte digest of `bytes`.
    static func digest<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var context = sha256_ctx()
        nettle_sha256_init(&context)
        let message = Array(bytes)
        message.withUnsafeBufferPointer { nettle_sha256_update(&context, $0.count, $0.baseAddress) }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        digest.withUnsafeMutableBufferPointer { nettle_sha256_digest(&context, $0.count, $0.baseAddress) }
        return digest
    }

    /// The digest of the UTF-8 of `text`, as 64 lowercase hex digits.
    static func hex(_ text: String) -> String { hexDigits(digest(Array(text.utf8))) }

    /// HMAC-SHA256 (RFC 2104) of `message` under `key`, as 64 lowercase hex digits: Facebook's
    /// `appsecret_proof` (the token signed with the app secret) on Graph calls made with a user token.
    package static func hmacHex(key: String, message: String) -> String {
        var context = hmac_sha256_ctx()
        let key = Array(key.utf8)
        let message = Array(message.utf8)
        key.withUnsafeBufferPointer { nettle_hmac_sha256_set_key(&context, $0.count, $0.baseAddress) }
        message.withUnsafeBufferPointer { nettle_hmac_sha256_update(&context, $0.count, $0.baseAddress) }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        digest.withUnsafeMutableBufferPointer { nettle_hmac_sha256_digest(&context, $0.count, $0.baseAddress) }
        return hexDigits(digest)
    }

    private static func hexDigits(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
