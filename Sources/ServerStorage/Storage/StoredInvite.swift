/// A sign-up invite as stored: the SHA-256 of its code, never the code.
public struct StoredInvite: Sendable, Hashable {
    package var codeHash: String
    /// Sign-ups it still allows.
    package var usesLeft: Int
    /// Seconds since 1970 after which it no longer works; `nil`: never expires.
    package var expiresAt: Double?
    package var createdAt: Double

    package init(codeHash: String, usesLeft: Int, expiresAt: Double? = nil, createdAt: Double) {
        self.codeHash = codeHash
        self.usesLeft = usesLeft
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }
}
