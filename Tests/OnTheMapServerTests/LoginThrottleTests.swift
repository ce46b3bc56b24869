import Foundation
import ServerConfig
import ServerTestSupport
import Testing

@testable import OnTheMapServer
@testable import ServerAdmin
@testable import ServerHTTP

/// The login throttle over real HTTP: per account and address, per address, per account from
/// untrusted addresses, and reset by a good login.
@Suite struct LoginThrottleTests {
    static func logIn(
        _ server: TestServer, _ email: String, _ password: String, forwardedFor: String? = nil
    ) async throws -> RawHTTP.Reply {
        let body = #"{"udacity":{"username":"\#(email)","password":"\#(password)"}}"#
        var headers: [String: String] = [:]
        if let forwardedFor { headers["X-Forwarded-For"] = forwardedFor }
        return try await RawHTTP.send("POST", server.baseURL, "/v1/session", headers: headers, json: body)
    }

    /// The 429 answer: prefixed Udacity body, `Retry-After` in whole seconds matching the message.
    static func expectBlocked(_ reply: RawHTTP.Reply, maxSeconds: Int) throws {
        #expect(reply.status == 429)
        let retryAfter = try #require(reply.header("Retry-After").flatMap { Int($0) })
        #expect((1...maxSeconds).contains(retryAfter))
        let object = try #require(reply.json(prefixed: true) as? [String: Any])
        #expect(object["status"] as? Int == 429)
        #expect(object["error"] as? String == "Too many failed logins. Try again in \(retryAfter) seconds.")
    }

    @Test(arguments: TestBackend.available)
    func fiveWrongPasswordsPassThenTheAccountIsBlockedUntilTheWindowEnds(backend: TestBackend) async throws {
        // A short block, doubled when a loaded machine took longer than the block to send the
        // blocked logins (such a run shows nothing, and asserts nothing).
        for blockSeconds in [3, 6, 12, 24] {
            if try await Self.blockedUntilTheBlockEnds(backend: backend, blockSeconds: blockSeconds) { return }
        }
        Issue.record("the blocked logins outlasted even a 24-second block")
    }

    /// Five wrong passwords, then the sixth and the right one refused 429, then the right one
    /// let in once the block has ended. False, with nothing asserted after the five, when the
    /// two blocked logins were not both answered within `blockSeconds` of the fifth failure.
    static func blockedUntilTheBlockEnds(backend: TestBackend, blockSeconds: Int) async throws -> Bool {
        // A long window: the five failures count however slowly a loaded machine sends them.
        let server = try await TestServer.start(
            backend: backend, loginThrottle: LoginThrottlePolicy(windowSeconds: 600, blockSeconds: Double(blockSeconds)))
        defer { Task { await server.stop() } }
        _ = try await server.addUser(email: "ada@example.com")

        var blockStart = ContinuousClock.now
        for attempt in 1...5 {
            // The block starts when the fifth failure is counted, after this.
            if attempt == 5 { blockStart = ContinuousClock.now }
            let reply = try await Self.logIn(server, "ada@example.com", "wrong password \(attempt)")
            #expect(reply.status == 403, "attempt \(attempt)")
        }
        let sixth = try await Self.logIn(server, "ada@example.com", "wrong password 6")
        // The right password is refused too while blocked, and the email's case does not matter.
        let right = try await Self.logIn(server, "ADA@example.com", "correct horse")
        guard ContinuousClock.now - blockStart < .seconds(blockSeconds) else { return false }
        try Self.expectBlocked(sixth, maxSeconds: blockSeconds)
        try Self.expectBlocked(right, maxSeconds: blockSeconds)

        try await Task.sleep(for: .milliseconds(blockSeconds * 1000 + 100))
        #expect(try await Self.logIn(server, "ada@example.com", "correct horse").status == 200)
        return true
    }

    @Test(arguments: TestBackend.available)
    func aGoodLoginResetsTheAccountCount(backend: TestBackend) async throws {
        let server = try await TestServer.start(
            backend: backend, loginThrottle: LoginThrottlePolicy(windowSeconds: 600, blockSeconds: 60))
        defer { Task { await server.stop() } }
        _ = try await server.addUser(email: "ada@example.com")

        for _ in 1...4 { #expect(try await Self.logIn(server, "ada@example.com", "wrong").status == 403) }
        #expect(try await Self.logIn(server, "ada@example.com", "correct horse").status == 200)
        // Without the reset the second of these would be the sixth failure.
        for attempt in 1...5 {
            #expect(try await Self.logIn(server, "ada@example.com", "wrong").status == 403, "attempt \(attempt)")
        }
        try Self.expectBlocked(try await Self.logIn(server, "ada@example.com", "correct horse"), maxSeconds: 60)
        // Another account is not affected.
        _ = try await server.addUser(email: "bob@example.com")
        #expect(try await Self.logIn(server, "bob@example.com", "correct horse").status == 200)
    }

    /// (trust proxy, X-Forwarded-For of the guesses, of the last try, expected status of the last try)
    static let addressCases: [(Bool, String, String, Int)] = [
        (true, "203.0.113.7", "203.0.113.7", 429),  // the same client behind the proxy
        (true, "203.0.113.7", "198.51.100.9", 200),  // another client behind the proxy
        (true, "10.0.0.1, 203.0.113.7", "203.0.113.7", 429),  // only the entry the proxy appended counts
        (false, "203.0.113.7", "198.51.100.9", 429),  // without --trust-proxy the header is ignored: all are 127.0.0.1
    ]

    @Test(arguments: TestBackend.available, addressCases)
    func guessesAtManyAccountsFromOneAddressAreBlocked(backend: TestBackend, addressCase: (Bool, String, String, Int)) async throws {
        let (trustProxy, guessesFrom, lastFrom, expected) = addressCase
        let policy = LoginThrottlePolicy(failuresPerAccount: 5, failuresPerAddress: 5, windowSeconds: 600, blockSeconds: 60)
        let server = try await TestServer.start(backend: backend, loginThrottle: policy, trustProxy: trustProxy)
        defer { Task { await server.stop() } }
        _ = try await server.addUser(email: "ada@example.com")
        for index in 1...5 {
            let reply = try await Self.logIn(server, "guess\(index)@example.com", "wrong", forwardedFor: guessesFrom)
            #expect(reply.status == 403)
        }
        let last = try await Self.logIn(server, "ada@example.com", "correct horse", forwardedFor: lastFrom)
        #expect(last.status == expected)
        if expected == 429 { try Self.expectBlocked(last, maxSeconds: 60) }
    }

    /// One client's failures never block the owner elsewhere; many clients share a per-account
    /// budget that an address the owner logged in from before is exempt from.
    @Test(arguments: TestBackend.available)
    func distributedGuessesShareABudgetThatTrustedAddressesSkip(backend: TestBackend) async throws {
        let policy = LoginThrottlePolicy(failuresPerAccount: 5, untrustedFailuresPerAccount: 10, windowSeconds: 600, blockSeconds: 60)
        let server = try await TestServer.start(backend: backend, loginThrottle: policy, trustProxy: true)
        defer { Task { await server.stop() } }
        _ = try await server.addUser(email: "ada@example.com")
        #expect(try await Self.logIn(server, "ada@example.com", "correct horse", forwardedFor: "192.0.2.1").status == 200)

        // Two attackers, 8 guesses each: each is stopped after its own 5, so they add 10.
        for attacker in ["203.0.113.7", "2001:db8:1:2::7"] {
            for attempt in 1...8 {
                let reply = try await Self.logIn(server, "ada@example.com", "wrong", forwardedFor: attacker)
                #expect(reply.status == (attempt <= 5 ? 403 : 429), "\(attacker) attempt \(attempt)")
            }
        }
        // Another address in the same IPv6 /64 is the same attacker.
        #expect(try await Self.logIn(server, "ada@example.com", "wrong", forwardedFor: "2001:db8:1:2::8").status == 429)
        // A third, new address finds the shared budget spent, even with the right password...
        try Self.expectBlocked(
            try await Self.logIn(server, "ada@example.com", "correct horse", forwardedFor: "198.51.100.9"), maxSeconds: 60)
        // ...while the owner's known address gets in.
        #expect(try await Self.logIn(server, "ada@example.com", "correct horse", forwardedFor: "192.0.2.1").status == 200)
    }

    /// A good login deletes the trust marks past the trust period (90 days), on both storages:
    /// the rows are gone, not just no longer counted; marks within the period stay.
    @Test(arguments: TestBackend.available)
    func trustPastItsNinetyDaysIsPruned(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        try await server.withDatabase { database in
            let storage = database.storage
            let throttle = LoginThrottle(storage: storage, policy: LoginThrottlePolicy())
            let day = 86_400.0
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            func logIn(_ email: String, _ address: String, at time: Date) async throws -> String {
                let admission = try await throttle.admitLogin(account: nil, email: email, address: address, now: time)
                try await throttle.loginSucceeded(admission, now: time)
                return admission.trust
            }
            let old = try await logIn("ada@example.com", "192.0.2.1", at: start)
            let recent = try await logIn("bob@example.com", "192.0.2.2", at: start + 2 * day)
            #expect(try await storage.isTrusted(old, since: 0))
            // 91 days after the first: its mark is past 90 days and deleted; the second's (89
            // days old) stays, and the new one is written.
            let new = try await logIn("cy@example.com", "192.0.2.3", at: start + 91 * day)
            #expect(try await !storage.isTrusted(old, since: 0))
            #expect(try await storage.isTrusted(recent, since: 0))
            #expect(try await storage.isTrusted(new, since: 0))
        }
    }

    /// Without --trust-proxy, X-Forwarded-For from a loopback peer (a proxy, most likely) is
    /// warned about once: all its clients share one address for the limits.
    @Test func forwardedForWithoutTrustProxyIsWarnedAboutOnce() async throws {
        let capture = ObservabilityTests.LogCapture()
        let server = try await TestServer.start(logger: capture.logger())
        defer { Task { await server.stop() } }
        #expect(try await Self.logIn(server, "ada@example.com", "wrong").status == 403)
        #expect(!capture.text.contains("--trust-proxy is off"))
        for _ in 1...2 { #expect(try await Self.logIn(server, "ada@example.com", "wrong", forwardedFor: "203.0.113.7").status == 403) }
        #expect(capture.text.components(separatedBy: "--trust-proxy is off").count == 2)
    }
}
