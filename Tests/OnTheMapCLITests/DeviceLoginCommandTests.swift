import Foundation
import ServerTestSupport
import Testing

/// `onthemap login --facebook | --provider NAME` as a user runs it: the real binary, a real server configured with the
/// providers' stand-in, which approves, denies or lets the code expire after a pending poll.
@Suite struct DeviceLoginCommandTests {
    static func run(_ arguments: [String], dataHome: URL) async throws -> ListCommandTests.Run {
        try await ListCommandTests.run(arguments, dataHome: dataHome)
    }

    func withServer(facebook: Bool = true, _ body: (ProviderStandIn, TestServer, URL) async throws -> Void) async throws {
        let standIn = try ProviderStandIn()
        defer { standIn.stop() }
        let server = try await TestServer.start { configuration in
            if facebook { configuration.facebook = standIn.facebook }
            configuration.oauthProviders = [standIn.oauth()]
        }
        let home = try ListCommandTests.temporaryFolder()
        do {
            try await body(standIn, server, home)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        try? FileManager.default.removeItem(at: home)
    }

    @Test func facebookPrintsCodeURLAndQRThenLogsIn() async throws {
        try await withServer { standIn, server, home in
            standIn.script(pending: 1, outcome: .approve(ProviderStandIn.ada))
            let run = try await Self.run(
                ["login", "--facebook", "--server", server.baseURL.absoluteString], dataHome: home)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("https://example.com/device"))
            #expect(run.stderr.contains("WDJB-MJHT"))
            #expect(run.stderr.split(separator: "\n").filter { $0.contains("▀") || $0.contains("▄") }.count >= 10)
            #expect(run.stdout.hasPrefix("Logged in with Facebook as "))
            let stored = try String(
                contentsOf: home.appendingPathComponent("state/onthemap/session.json"), encoding: .utf8)
            #expect(stored.contains("facebook") && !stored.contains("tok-"))  // the provider token is never kept
            #expect(standIn.pollCount == 2)
            #expect(try await server.withDatabase { try await $0.users() }.map(\.email) == ["facebook:\(ProviderStandIn.ada.id)"])
        }
    }

    @Test func theOAuthProviderByNameAndTheList() async throws {
        try await withServer { standIn, server, home in
            let list = try await Self.run(["login", "--list-providers", "--server", server.baseURL.absoluteString], dataHome: home)
            #expect(list.stdout == "facebook\ngithub\n")
            standIn.script(pending: 0, outcome: .approve(ProviderStandIn.ada))
            let run = try await Self.run(
                ["login", "--provider", "github", "--ascii", "--server", server.baseURL.absoluteString], dataHome: home)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.hasPrefix("Logged in with GitHub as "))
            #expect(run.stderr.contains("##############"))
        }
    }

    @Test func deniedExpiredAndNotOfferedFailWithOneLine() async throws {
        try await withServer(facebook: false) { standIn, server, home in
            let missing = try await Self.run(
                ["login", "--facebook", "--server", server.baseURL.absoluteString], dataHome: home)
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("The server does not offer Facebook login; it offers: github."))
            for (outcome, message) in [(ProviderStandIn.Outcome.deny, "The GitHub login was declined."), (.expire, "The code expired")] {
                standIn.script(pending: 0, outcome: outcome)
                let run = try await Self.run(
                    ["login", "--provider", "github", "--server", server.baseURL.absoluteString], dataHome: home)
                #expect(run.status == 1)
                #expect(run.stderr.contains(message), "\(run.stderr)")
                #expect(run.stdout.isEmpty)
            }
        }
    }
}
