import Foundation
import Hummingbird
import ServerConfig
import ServerStorage

/// The login and sign-up throttle: counts an attempt in storage before any password is hashed,
/// and refuses with 429 once a subject is over its limit (`LoginThrottlePolicy`).
package struct LoginThrottle: Sendable {
    let storage: any ServerStorage
    let policy: LoginThrottlePolicy
    /// Sign-ups let through per address per `signUpWindow`.
    var signUpsPerAddress = 5
    var signUpWindow: Double = 3600
    /// Blocks already seen, answered without the database.
    var blocks = BlockCache()

    package init(storage: any ServerStorage, policy: LoginThrottlePolicy, signUpsPerAddress: Int = 5, signUpWindow: Double = 3600) {
        self.storage = storage
        self.policy = policy
        self.signUpsPerAddress = signUpsPerAddress
        self.signUpWindow = signUpWindow
    }

    /// What a login attempt was counted against, to settle after a good login.
    struct Admission: Sendable {
        var pair: String
        var shared: [String]
        var trust: String
    }

    /// Counts the attempt; throws 429 with `Retry-After` when a subject is over its limit.
    ///
    /// `account` is the account the storage found for `email` (looked up before counting, without
    /// hashing): attempts are counted under its key, so every spelling the storage matches to one
    /// account (`ALICE@`, `alİce@` on PostgreSQL) shares one count. An unknown email is counted
    /// under `ThrottleSubject.normalizedEmail`. An address the account has logged in from within
    /// `trustSeconds` is trusted: only its own account × address count applies there, so a flood
    /// of other logins from the same address (a classroom's NAT) does not lock its owner out.
    func admitLogin(account: Account?, email: String, address: String?, now: Date = Date()) async throws -> Admission {
        let time = now.timeIntervalSince1970
        let who = ThrottleSubject.accountName(key: account?.key, email: email)
        let address = ClientAddress.subject(address)
        let trust = who + " " + address
        var subjects = [subject("pair:" + trust, policy.failuresPerAccount)]
        var trusted = false
        if account != nil { trusted = try await storage.isTrusted(trust, since: time - policy.trustSeconds) }
        if !trusted {
            subjects.append(subject("address:" + address, policy.failuresPerAddress))
            subjects.append(subject("account:" + who, policy.untrustedFailuresPerAccount))
        }
        try await count(subjects, now: time, refusal: "Too many failed logins.")
        return Admission(pair: subjects[0].key, shared: subjects.dropFirst().map(\.key), trust: trust)
    }

    /// Counts a provider login (Facebook, OAuth) against its address alone: there is no account
    /// to guess at, and a shared per-provider budget would let one address block everybody.
    /// Bounds the token checks one address can make the server send to the provider.
    func admitProviderLogin(provider: String, address: String?, now: Date = Date()) async throws -> Admission {
        let address = ClientAddress.subject(address)
        let subjects = [
            subject("pair:provider:" + provider + " " + address, policy.failuresPerAccount),
            subject("address:" + address, policy.failuresPerAddress),
        ]
        try await count(subjects, now: now.timeIntervalSince1970, refusal: "Too many failed logins.")
        return Admission(pair: subjects[0].key, shared: [subjects[1].key], trust: "provider:" + provider + " " + address)
    }

    /// Takes the attempt back without trusting anything: it was not a guess (the provider did not answer).
    func release(_ admission: Admission, now: Date = Date()) async throws {
        try await storage.recordSuccess(
            clear: [], release: [admission.pair] + admission.shared, trust: nil, now: now.timeIntervalSince1970)
    }

    /// After a good login: clears its pair, takes the attempt back, trusts its address, and
    /// deletes the trust marks past the trust period (one scan of the live marks).
    func loginSucceeded(_ admission: Admission, now: Date = Date()) async throws {
        try await storage.recordSuccess(
            clear: [admission.pair], release: admission.shared, trust: admission.trust, now: now.timeIntervalSince1970)
        try await storage.forgetTrust(before: now.timeIntervalSince1970 - policy.trustSeconds)
    }

    /// Counts a sign-up from `address`; throws 429 past `signUpsPerAddress` per window.
    func admitSignUp(address: String?, now: Date = Date()) async throws {
        let time = now.timeIntervalSince1970
        let key = "signup:" + ClientAddress.subject(address)
        let subject = ThrottleSubject(key: key, limit: signUpsPerAddress, window: signUpWindow, block: signUpWindow)
        try await count([subject], now: time, refusal: "Too many sign-ups from this address.")
    }

    /// Counts one attempt against `subjects` (unless one is known blocked); throws 429 when blocked.
    private func count(_ subjects: [ThrottleSubject], now: Double, refusal: String) async throws {
        if let until = blocks.blockedUntil(subjects.map(\.key), now: now) {
            throw Self.tooMany(refusal, retryAfter: until - now)
        }
        if let block = try await storage.recordAttempt(subjects: subjects, now: now) {
            blocks.remember(block, now: now)
            throw Self.tooMany(refusal, retryAfter: block.until - now)
        }
    }

    private func subject(_ key: String, _ limit: Int) -> ThrottleSubject {
        ThrottleSubject(key: key, limit: limit, window: policy.windowSeconds, block: policy.blockSeconds)
    }

    /// 429, prefixed Udacity style, with whole seconds in `Retry-After` and in the message.
    static func tooMany(_ what: String, retryAfter seconds: Double) -> APIFailure {
        let whole = max(1, Int(seconds.rounded(.up)))
        var failure = APIFailure.udacity(.tooManyRequests, "\(what) Try again in \(whole) seconds.")
        failure.headers[.retryAfter] = String(whole)
        return failure
    }
}
