/// One thing attempts are counted against, with its own limit: `pair:<account> <address>`,
/// `address:<address>`, `account:<account>` (logins) or `signup:<address>`, where `<account>` is
/// `accountName(key:email:)`.
public struct ThrottleSubject: Sendable, Hashable {
    /// How logins name the account they aim at: `key:<key>` once the storage found the account
    /// (whatever spelling of its email found it), else `email:<normalized email>`.
    package static func accountName(key: String?, email: String) -> String {
        key.map { "key:" + $0 } ?? "email:" + normalizedEmail(email)
    }

    /// The one form of an email that attempts at an unknown account are counted under:
    /// canonically composed, then lowercased.
    package static func normalizedEmail(_ email: String) -> String {
        email.precomposedStringWithCanonicalMapping.lowercased()
    }

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
public struct ThrottleBlock: Sendable, Hashable {
    package var subject: String
    package var until: Double

    package init(subject: String, until: Double) {
        self.subject = subject
        self.until = until
    }
}
