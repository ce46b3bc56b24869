/// A sign-up invite as stored: the SHA-256 of its code, never the code.
struct StoredInvite: Sendable, Hashable {
    var codeHash: String
    /// Sign-ups it still allows.
    var usesLeft: Int
    /// Seconds since 1970 after which it no longer works; `nil`: never expires.
    var expiresAt: Double?
    var createdAt: Double
}
