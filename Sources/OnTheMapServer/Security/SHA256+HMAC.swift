extension SHA256 {
    /// HMAC-SHA256 (RFC 2104) of `message` under `key`, as 64 lowercase hex digits: Facebook's
    /// `appsecret_proof` (the token signed with the app secret) on Graph calls made with a user token.
    static func hmacHex(key: String, message: String) -> String {
        var block = Array(key.utf8)
        if block.count > 64 { block = digest(block) }
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = digest(block.map { $0 ^ 0x36 } + Array(message.utf8))
        return digest(block.map { $0 ^ 0x5c } + inner).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
