import ServerStorage

/// How many login attempts are let through before `POST …/session` answers 429.
///
/// Attempts are counted *before* the password is checked (one atomic upsert per subject, in the
/// database, so every instance on one database shares them), under the account the email finds
/// (its key, whatever the spelling) or the normalised email when there is none, against three
/// subjects:
///
/// - **account × address** (`failuresPerAccount`, default 5 per 15 minutes): the guesses one
///   client gets at one account. Blocks only that client: the owner, from any other address,
///   is not affected.
/// - **address** (`failuresPerAddress`, default 100): one client guessing across many
///   accounts. Higher, since a classroom shares one address behind its NAT. Not counted for an
///   account at an address it is trusted from (below), so a flood from a shared address does not
///   lock out a classmate who logs in from it.
/// - **account, from untrusted addresses** (`untrustedFailuresPerAccount`, default 50):
///   distributed guessing from many addresses. Following OWASP, an address from which the
///   account logged in successfully within `trustSeconds` (90 days) is *trusted* and skips this
///   budget; every other address shares it. Each address adds at most its own 5 to it (its
///   pair subject is counted first and stops it), so exhausting it takes at least 10 addresses;
///   then guessing at the account is capped at 50 guesses per 15 minutes (4,800 a day) however
///   many addresses the attacker has, while the owner still logs in from any address they have
///   used before. The price: during such an attack a login from a *new* address waits for the
///   block to end (or the operator resets the password).
///
/// A subject past its limit within `windowSeconds` of its first attempt is blocked for
/// `blockSeconds`. A good login clears its account × address count and takes its attempt back
/// from the other two (a good login is no guess); it never clears the address's record of
/// guessing at other accounts.
public struct LoginThrottlePolicy: Sendable, Hashable {
    /// Attempts at one account from one address (at least 5 are always let through).
    public var failuresPerAccount: Int
    /// Attempts from one client address, across accounts.
    public var failuresPerAddress: Int
    /// Attempts at one account from all its untrusted addresses together.
    public var untrustedFailuresPerAccount: Int
    /// How long attempts are counted from a subject's first one.
    public var windowSeconds: Double
    /// How long a block lasts; the count starts again after it.
    public var blockSeconds: Double
    /// How long a good login makes its address trusted for its account.
    public var trustSeconds: Double

    public init(
        failuresPerAccount: Int = 5, failuresPerAddress: Int = 100, untrustedFailuresPerAccount: Int = 50,
        windowSeconds: Double = 900, blockSeconds: Double = 900, trustSeconds: Double = 90 * 86_400
    ) {
        self.failuresPerAccount = max(failuresPerAccount, 5)
        self.failuresPerAddress = max(failuresPerAddress, 5)
        self.untrustedFailuresPerAccount = max(untrustedFailuresPerAccount, 5)
        self.windowSeconds = min(max(windowSeconds, 0.1), ThrottleSQL.staleAfter)
        self.blockSeconds = max(blockSeconds, 0.1)
        self.trustSeconds = max(trustSeconds, 0)
    }
}
