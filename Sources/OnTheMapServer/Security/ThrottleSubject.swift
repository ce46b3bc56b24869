/// One thing attempts are counted against, with its own limit: `pair:<email> <address>`,
/// `address:<address>`, `account:<email>` (logins) or `signup:<address>`.
struct ThrottleSubject: Sendable, Hashable {
    var key: String
    /// Attempts let through per window; the next one blocks the subject.
    var limit: Int
    /// Seconds attempts are counted over, from the first.
    var window: Double
    /// Seconds a subject stays blocked once over its limit.
    var block: Double
}

/// A subject found over its limit, and until when (seconds since 1970) it is blocked.
struct ThrottleBlock: Sendable, Hashable {
    var subject: String
    var until: Double
}
