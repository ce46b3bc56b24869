import Foundation
import Launcher
import ServerTestSupport
import Testing

/// Sign-up under control: a per-address limit, and `--signup open|invite|closed`.
@Suite struct SignUpAbuseTests {
    @Test(arguments: TestBackend.available)
    func twentySignUpsFromOneAddressGetFiveAccounts(backend: TestBackend) async throws {
        let server = try await AbuseServer.start(backend)
        defer { Task { await server.stop() } }
        #expect(try await Self.policy(server) == "open")
        for index in 1...20 {
            let reply = try await server.signUp("student\(index)@example.com")
            if index <= 5 {
                #expect(reply.status == 201, "sign-up \(index)")
            } else {
                #expect(reply.status == 429, "sign-up \(index)")
                #expect(reply.header("Retry-After").flatMap { Int($0) }.map { (1...3600).contains($0) } == true)
            }
        }
        // Another address still may.
        #expect(try await server.signUp("elsewhere@example.com", from: "127.0.0.2").status == 201)
    }

    @Test(arguments: TestBackend.available)
    func inviteModeNeedsAWorkingCode(backend: TestBackend) async throws {
        let server = try await AbuseServer.start(backend, ["--signup", "invite"])
        defer { Task { await server.stop() } }
        #expect(try await Self.policy(server) == "invite")

        let without = try await server.signUp("ada@example.com")
        #expect(without.status == 403)
        #expect((without.json(prefixed: true) as? [String: Any])?["parameter"] as? String == "invite")
        let wrong = try await server.signUp("ada@example.com", invite: "not-a-code")
        #expect(wrong.status == 403)

        let code = try Self.createInvite(database: server.database)
        #expect(try await server.signUp("ada@example.com", invite: code).status == 201)
        // One use by default: the second sign-up with it is refused.
        #expect(try await server.signUp("bob@example.com", invite: code).status == 403)
    }

    @Test func closedModeRefusesEveryone() async throws {
        let server = try await AbuseServer.start(.sqlite, ["--signup", "closed"])
        defer { Task { await server.stop() } }
        #expect(try await Self.policy(server) == "closed")
        let reply = try await server.signUp("ada@example.com")
        #expect(reply.status == 403)
        #expect(reply.body.starts(with: Array(")]}'\n".utf8)))
    }

    /// The uses left of the only invite, from `onthemap-server invite list` ("… N left …").
    static func usesLeft(database: String) throws -> Int? {
        let text = try LaunchedProcess.runBlocking(
            ProductBinary.url("onthemap-server"), ["invite", "list", "--database", database], errors: .discard
        ).stdout
        let field = text.split(separator: "\t").first { $0.hasSuffix(" left") }
        return field.flatMap { Int($0.split(separator: " ").first ?? "") }
    }

    /// A sign-up refused on a duplicate email, or by a full hash gate (503), leaves the invite
    /// unspent; many sign-ups at once with a one-use invite make exactly one account.
    @Test(arguments: TestBackend.available)
    func anInviteIsSpentOnlyByASignUpThatSucceeds(backend: TestBackend) async throws {
        try await HeavyTests.exclusively {
            // One hash at a time and none waiting: a burst is mostly answered 503.
            let server = try await AbuseServer.start(
                backend, ["--signup", "invite", "--max-concurrent-hashes", "1", "--max-waiting-hashes", "0"])
            defer { Task { await server.stop() } }
            let first = try Self.createInvite(database: server.database)
            #expect(try await server.signUp("ada@example.com", invite: first).status == 201)

            let second = try Self.createInvite(database: server.database)
            #expect(try await server.signUp("ADA@example.com", invite: second).status == 409)
            #expect(try await server.signUp("bob@example.com", invite: second).status == 201)

            // Ten at once for one use: the gate refuses some (503), the rest race for the use.
            let last = try Self.createInvite(database: server.database)
            let burst = try await Flood.run(10) { index in
                try await BoundHTTP.timed(
                    "POST", server.port, "/v1/users",
                    json: #"{"email":"s\#(index)@example.com","password":"correct horse","first_name":"S","last_name":"T","invite":"\#(last)"}"#,
                    from: "127.0.1.\(index + 1)")
            }
            #expect(burst.count(201) <= 1, "\(burst.statuses)")
            #expect(Set(burst.statuses).isSubset(of: [201, 403, 503]), "\(burst.statuses)")
            if burst.count(201) == 0 {
                // Every one was a 503: the use is still there.
                #expect(burst.count(503) > 0)
                #expect(try await server.signUp("carol@example.com", invite: last).status == 201)
            }
            #expect(try await server.signUp("dave@example.com", invite: last).status == 403)
        }
    }

    /// Junk sign-ups from one address (a classmate behind the same NAT) use up its hourly
    /// allowance, but a sign-up with a working invite from that address still gets in.
    @Test(arguments: TestBackend.available)
    func aWorkingInviteIsAcceptedAfterJunkSignUpsFromTheSameAddress(backend: TestBackend) async throws {
        let server = try await AbuseServer.start(backend, ["--signup", "invite"])
        defer { Task { await server.stop() } }
        for index in 1...6 {
            let junk = try await server.signUp("junk\(index)@example.com", invite: "not-a-code-\(index)", from: "127.0.0.9")
            #expect(junk.status == (index <= 5 ? 403 : 429), "junk sign-up \(index)")
        }
        let code = try Self.createInvite(database: server.database)
        #expect(try await server.signUp("ada@example.com", invite: code, from: "127.0.0.9").status == 201)
        #expect(try Self.usesLeft(database: server.database) == 0)
    }

    /// `GET /v1/auth/providers` (prefixed): the password provider's sign-up policy.
    static func policy(_ server: AbuseServer) async throws -> String? {
        let reply = try await BoundHTTP.send("GET", server.port, "/v1/auth/providers")
        let legacy = try await BoundHTTP.send("GET", server.port, "/api/auth/providers")
        #expect(reply.body == legacy.body)
        let providers = (reply.json(prefixed: true) as? [String: Any])?["providers"] as? [[String: Any]]
        return providers?.first { $0["type"] as? String == "password" }?["signup"] as? String
    }

    /// `onthemap-server invite create` as the operator runs it; returns the printed code.
    static func createInvite(database: String, uses: Int = 1) throws -> String {
        let run = try LaunchedProcess.runBlocking(
            ProductBinary.url("onthemap-server"),
            ["invite", "create", "--uses", String(uses), "--expires", "1d", "--database", database], errors: .discard)
        guard run.status == 0 else { throw TestServerError("invite create failed") }
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
