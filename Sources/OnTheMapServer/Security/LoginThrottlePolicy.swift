/// How many failed logins are let through before `POST …/session` answers 429.
///
/// Failures are counted per account email and per client address, in the database (so every
/// instance on one database shares them). A subject that reaches its limit within `windowSeconds`
/// of its first failure is blocked for `blockSeconds`; a good login clears its account's count (not its address's, so one
/// valid account cannot wash an address's record of guessing at others).
public struct LoginThrottlePolicy: Sendable, Hashable {
    /// Failures of one email before it is blocked (at least 5 are always let through).
    public var failuresPerAccount: Int
    /// Failures from one client address before it is blocked; higher, since a classroom shares
    /// one address behind its NAT.
    public var failuresPerAddress: Int
    /// How long failures are counted from a subject's first one.
    public var windowSeconds: Double
    /// How long a block lasts; the count starts again after it.
    public var blockSeconds: Double

    public init(failuresPerAccount: Int = 5, failuresPerAddress: Int = 100, windowSeconds: Double = 900, blockSeconds: Double = 900) {
        self.failuresPerAccount = max(failuresPerAccount, 5)
        self.failuresPerAddress = max(failuresPerAddress, 5)
        self.windowSeconds = max(windowSeconds, 0.1)
        self.blockSeconds = max(blockSeconds, 0.1)
    }
}

/// One thing failed logins are counted against: `email:<lowercased email>` or `address:<ip>`.
struct ThrottleSubject: Sendable, Hashable {
    var key: String
    /// Failures that block it.
    var limit: Int
}
