import Foundation
import ServerTestSupport
import Testing

/// Logins as an attacker sends them: all at once, at one account or at many unknown emails.
@Suite struct LoginAbuseTests {
    /// 200 wrong passwords at once: the attempt is counted before bcrypt, so at most 5 are
    /// checked; the rest get 429. The owner, from another address, still gets in. (On a machine
    /// loaded by something else, one of the five may wait out the hash gate's line and get 503:
    /// refused too, and still never checked.)
    @Test(arguments: TestBackend.available)
    func aBurstOfWrongPasswordsChecksAtMostFiveAndLocksNobodyElseOut(backend: TestBackend) async throws {
        try await HeavyTests.exclusively { try await burst(backend: backend) }
    }

    private func burst(backend: TestBackend) async throws {
        let server = try await AbuseServer.start(backend)
        defer { Task { await server.stop() } }
        #expect(try await server.signUp("ada@example.com").status == 201)

        let flood = try await Flood.run(200) { index in
            try await server.timedLogIn("ada@example.com", "wrong password \(index)")
        }
        #expect(flood.count(403) + flood.count(429) + flood.count(503) == 200, "\(flood.statuses)")
        #expect(flood.count(503) <= 5, "only the checked five ever wait for the hash gate")
        #expect(flood.count(403) <= 5)
        #expect(try await server.passwordHashes("login") <= 5)

        let owner = try await server.logIn("ada@example.com", "correct horse", from: "127.0.0.2")
        #expect(owner.status == 200)
    }

    /// 300 logins at once for emails that do not exist (each costs a decoy hash): every answer
    /// comes within 5 s, the excess is refused at once (503, or 429 from the address limit),
    /// and the app's main list request keeps answering in under 200 ms (p99) meanwhile.
    @Test func aFloodOfUnknownEmailsIsRefusedQuicklyAndReadsStayFast() async throws {
        try await HeavyTests.exclusively { try await flood() }
    }

    private func flood() async throws {
        let server = try await AbuseServer.start(.sqlite, ["--list-cache-seconds", "0"])
        defer { Task { await server.stop() } }
        let done = Completion()

        async let flood = Flood.run(300) { index in
            try await server.timedLogIn("nobody\(index)@example.com", "wrong password")
        }
        // The app's main request, one after another on a kept-alive connection, for as long as
        // the flood runs.
        async let reads = KeepAliveProbe.run(port: server.port, path: "/v1/StudentLocation?limit=100&order=-updatedAt", until: done)
        let answers = try await flood
        done.set()
        let latencies = try await reads

        #expect(answers.statuses.count == 300)
        #expect(answers.seconds.max() ?? 99 < 5, "slowest login answer: \(answers.seconds.max() ?? 0) s")
        #expect(Set(answers.statuses).isSubset(of: [403, 429, 503]), "\(Set(answers.statuses))")
        #expect(answers.count(503) + answers.count(429) > 0)
        #expect(latencies.count >= 5, "only \(latencies.count) list requests during the flood")
        let sorted = latencies.sorted()
        let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
        #expect(p99 < 0.2, "p99 of \(sorted.count) list requests: \(p99) s; slowest \(sorted.suffix(5))")
    }

    /// Every spelling the storage matches to one account shares its count: after 5 wrong
    /// passwords for `alice@` from one address, the right one sent as `ALICE@` or `alİce@`
    /// (U+0130, which the canonical e-mail form folds onto `alice@` on both stores) is refused
    /// there too.
    @Test(arguments: TestBackend.available)
    func aliasesOfAnEmailShareOneCount(backend: TestBackend) async throws {
        let server = try await AbuseServer.start(backend)
        defer { Task { await server.stop() } }
        #expect(try await server.signUp("alice@example.com").status == 201)
        for index in 1...5 {
            #expect(try await server.logIn("alice@example.com", "wrong password \(index)", from: "127.0.0.3").status == 403)
        }
        #expect(try await server.logIn("ALICE@example.com", "correct horse", from: "127.0.0.3").status == 429)
        let dotted = try await server.logIn("al\u{130}ce@example.com", "correct horse", from: "127.0.0.3").status
        // One canonical form on both stores (was: SQLite matched by ASCII case only, and answered 403).
        #expect(dotted == 429)
        #expect(try await server.logIn("alice@example.com", "correct horse", from: "127.0.0.4").status == 200)
    }

    /// A flood of failed logins for unknown emails from one address (a classmate behind the same
    /// NAT) blocks the address for accounts that never logged in from it, but an account that has
    /// logged in from it before still logs in there with its right password.
    @Test(arguments: TestBackend.available)
    func aFloodFromAnAddressDoesNotLockOutAnAccountThatLoggedInFromIt(backend: TestBackend) async throws {
        try await HeavyTests.exclusively {
            let server = try await AbuseServer.start(backend)
            defer { Task { await server.stop() } }
            #expect(try await server.signUp("ada@example.com", from: "127.0.0.6").status == 201)
            #expect(try await server.signUp("bob@example.com", from: "127.0.0.6").status == 201)
            #expect(try await server.logIn("ada@example.com", "correct horse", from: "127.0.0.5").status == 200)

            // Counted before any hash: answered 403, or 503 when the hash gate is full.
            let flood = try await Flood.run(101) { index in
                try await server.timedLogIn("nobody\(index)@example.com", "wrong password", from: "127.0.0.5")
            }
            #expect(flood.count(403) + flood.count(429) + flood.count(503) == 101, "\(flood.statuses)")
            #expect(try await server.logIn("bob@example.com", "correct horse", from: "127.0.0.5").status == 429)
            #expect(try await server.logIn("ada@example.com", "correct horse", from: "127.0.0.5").status == 200)
            // Its own 5 guesses per address still hold there.
            for index in 1...5 {
                #expect(try await server.logIn("ada@example.com", "wrong \(index)", from: "127.0.0.5").status == 403)
            }
            #expect(try await server.logIn("ada@example.com", "correct horse", from: "127.0.0.5").status == 429)
        }
    }
}
