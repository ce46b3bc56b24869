/// How a session is kept at rest: its id and XSRF token only as SHA-256 hashes, so a copied
/// database or backup holds no token that logs anyone in.
///
/// Log-out by the XSRF cookie must still answer the session's id (the original API did), so the
/// id is also stored *sealed*: XORed with a mask derived from the XSRF token. Only a client that
/// holds the token can unseal it; the database alone cannot.
enum SessionSeal {
    /// The stored form of a session id or an XSRF token.
    static func hash(_ token: String) -> String { SHA256.hex(token) }

    /// `id` (at most 32 bytes) masked by `xsrfToken`, as hex.
    static func seal(id: String, xsrfToken: String) -> String {
        let mask = SHA256.digest(Array(("seal:" + xsrfToken).utf8))
        return zip(Array(id.utf8), mask).map { $0 ^ $1 }.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The id `seal` sealed, given the same token; `nil` when `sealed` is not such a value.
    static func unseal(_ sealed: String, xsrfToken: String) -> String? {
        let mask = SHA256.digest(Array(("seal:" + xsrfToken).utf8))
        let digits = Array(sealed.utf8)
        guard digits.count % 2 == 0, digits.count / 2 <= mask.count else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte ^ mask[index / 2])
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
