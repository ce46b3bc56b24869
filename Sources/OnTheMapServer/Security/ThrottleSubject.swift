/// One thing attempts are counted against, with its own limit: `pair:<email> <address>`,
/// `address:<address>`, `account:<email>` (logins) or `signup:<address>`.
package struct ThrottleSubject: Sendable, Hashable {
    package var key: String
    /// Attempts let through per window; the next one blocks the subject.
    package var limit: Int
    /// Seconds attempts are counted over, from the first.
    package var window: Double
    /// Seconds a subject stays blocked once over its limit.
    package var block: Double

    package init(key: String, limit: Int, window: Double, block: Double) {
        self.key = key
        self.limit = limit
        self.window = window
        self.block = block
    }
}

/// A subject found over its limit, and until when (seconds since 1970) it is blocked.
package struct ThrottleBlock: Sendable, Hashable {
    package var subject: String
    package var until: Double

    package init(subject: String, until: Double) {
        self.subject = subject
        self.until = until
    }
}
