import Foundation
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

    /// `GET /v1/auth/providers` (prefixed): the password provider's sign-up policy.
    static func policy(_ server: AbuseServer) async throws -> String? {
        let reply = try await BoundHTTP.send("GET", server.port, "/v1/auth/providers")
        let legacy = try await BoundHTTP.send("GET", server.port, "/api/auth/providers")
        #expect(reply.body == legacy.body)
        let providers = (reply.json(prefixed: true) as? [String: Any])?["providers"] as? [[String: Any]]
        return providers?.first { $0["type"] as? String == "password" }?["signup"] as? String
    }

    /// `onthemap-server invite create` as the operator runs it; returns the printed code.
    static func createInvite(database: String) throws -> String {
        let process = Process()
        process.executableURL = ProductBinary.url("onthemap-server")
        process.arguments = ["invite", "create", "--uses", "1", "--expires", "1d", "--database", database]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestServerError("invite create failed") }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
