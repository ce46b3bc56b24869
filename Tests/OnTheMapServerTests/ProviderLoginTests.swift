import Foundation
import Launcher
import OnTheMapServer
import ServerConfig
import ServerHTTP
import ServerTestSupport
import StandIn
import Testing

/// Facebook and OAuth device-login credentials of `POST …/session`, against the providers'
/// stand-in on loopback, and what `…/auth/providers` lists.
@Suite struct ProviderLoginTests {
    /// A server with the stand-in's Facebook app and its `github` provider (each unless turned off).
    static func start(
        _ standIn: ProviderStandIn, backend: TestBackend = .sqlite, facebook: Bool = true, oauth: Bool = true
    ) async throws -> TestServer {
        try await TestServer.start(backend: backend) { configuration in
            if facebook { configuration.facebook = standIn.facebook }
            if oauth { configuration.oauthProviders = [standIn.oauth()] }
        }
    }

    static func facebookBody(_ token: String) -> String { #"{"facebook_mobile":{"access_token":"\#(token)"}}"# }
    static func oauthBody(_ token: String, provider: String = "github") -> String {
        #"{"oauth":{"provider":"\#(provider)","access_token":"\#(token)"}}"#
    }

    static func logIn(_ server: TestServer, _ body: String, path: String = "/v1/session") async throws -> RawHTTP.Reply {
        try await RawHTTP.send("POST", server.baseURL, path, json: body)
    }

    /// The account key of a 200 login answer (and checks it is a whole session answer).
    static func accountKey(_ reply: RawHTTP.Reply) throws -> String {
        #expect(reply.status == 200, "\(reply.text)")
        let object = try #require(reply.json(prefixed: true) as? [String: Any])
        let session = try #require(object["session"] as? [String: Any])
        #expect((session["id"] as? String)?.count == 32)
        #expect(reply.header("Set-Cookie")?.hasPrefix("XSRF-TOKEN=") == true)
        return try #require((object["account"] as? [String: Any])?["key"] as? String)
    }

    static func error(_ reply: RawHTTP.Reply) -> String? {
        (reply.json(prefixed: true) as? [String: Any])?["error"] as? String
    }

    // MARK: Tests

    @Test(arguments: TestBackend.available)
    func facebookLoginMakesTheAccountOnceThenFindsIt(backend: TestBackend) async throws {
        let standIn = try ProviderStandIn()
        defer { standIn.stop() }
        let server = try await Self.start(standIn, backend: backend)
        defer { Task { await server.stop() } }

        let first = try Self.accountKey(try await Self.logIn(server, Self.facebookBody(standIn.issueToken())))
        let again = try Self.accountKey(try await Self.logIn(server, Self.facebookBody(standIn.issueToken()), path: "/api/session"))
        #expect(first == again)
        let users = try await server.withDatabase { try await $0.users() }
        #expect(users.count == 1)
        #expect(users.first?.firstName == "Ada" && users.first?.lastName == "Lovelace")
        // The names came from Facebook; the public user shows them.
        let user = try await RawHTTP.send("GET", server.baseURL, "/v1/users/\(first)")
        #expect((user.json(prefixed: true) as? [String: Any])?["last_name"] as? String == "Lovelace")
        // The secret went to debug_token only, never to /me.
        let me = try #require(standIn.requests.first { $0.target.hasPrefix("/graph/me") })
        #expect(!me.target.contains(standIn.appSecret))
        #expect(me.target.contains("appsecret_proof="))
    }

    @Test func facebookAccountHasNoPasswordUntilOneIsSet() async throws {
        let standIn = try ProviderStandIn()
        defer { standIn.stop() }
        let server = try await Self.start(standIn)
        defer { Task { await server.stop() } }
        let key = try Self.accountKey(try await Self.logIn(server, Self.facebookBody(standIn.issueToken())))
        let placeholder = "facebook:\(ProviderStandIn.ada.id)"
        for password in ["", "correct horse"] {
            let reply = try await Self.logIn(server, #"{"udacity":{"username":"\#(placeholder)","password":"\#(password)"}}"#)
            #expect(reply.status == 403)
        }
        _ = try await server.withDatabase { try await $0.resetPassword(keyOrEmail: key, password: "correct horse") }
        let reply = try await Self.logIn(server, #"{"udacity":{"username":"\#(placeholder)","password":"correct horse"}}"#)
        #expect(try Self.accountKey(reply) == key)
    }

    struct Refusal: Sendable, CustomStringConvertible {
        var description: String
        var token: @Sendable (ProviderStandIn) -> String
        var facebook: String
        var oauth: String
    }

    static let refusals: [Refusal] = [
        Refusal(
            description: "another app", token: { $0.issueToken(app: "someone-elses-app") },
            facebook: "The Facebook access token was issued for another app.",
            oauth: "The github access token was issued for another app."),
        Refusal(
            description: "invalid", token: { _ in "not-a-token" }, facebook: "The Facebook access token is not valid.",
            oauth: "The github access token is not valid."),
        Refusal(
            description: "expired", token: { $0.issueToken(expiresIn: -60) }, facebook: "The Facebook access token has expired.",
            oauth: "The github access token has expired."),
    ]

    @Test(arguments: refusals)
    func badTokensAre403WithTheirOwnMessage(refusal: Refusal) async throws {
        let standIn = try ProviderStandIn()
        defer { standIn.stop() }
        let server = try await Self.start(standIn)
        defer { Task { await server.stop() } }
        let facebook = try await Self.logIn(server, Self.facebookBody(refusal.token(standIn)))
        #expect(facebook.status == 403)
        #expect(Self.error(facebook) == refusal.facebook)
        let oauth = try await Self.logIn(server, Self.oauthBody(refusal.token(standIn)))
        #expect(oauth.status == 403)
        #expect(Self.error(oauth) == refusal.oauth)
        #expect(try await server.withDatabase { try await $0.users() }.isEmpty)
    }

    /// The userinfo answer names no audience (as OpenID Connect's does not): a token another app
    /// holds is refused by each audience check, and this app's own token is accepted.
    @Test(arguments: ProviderStandIn.Check.allCases)
    func anOAuthTokenIsAcceptedOnlyWhenItsAudienceIsProven(check: ProviderStandIn.Check) async throws {
        let standIn = try ProviderStandIn()
        defer { standIn.stop() }
        let server = try await TestServer.start { $0.oauthProviders = [standIn.oauth(check: check)] }
        defer { Task { await server.stop() } }
        let other = try await Self.logIn(server, Self.oauthBody(standIn.issueToken(app: "someone-elses-app")))
        #expect(other.status == 403)
        #expect(Self.error(other) == "The github access token was issued for another app.")
        #expect(try await server.withDatabase { try await $0.users() }.isEmpty)
        _ = try Self.accountKey(try await Self.logIn(server, Self.oauthBody(standIn.issueToken())))
    }

    /// A provider configured without a way to prove a token's audience is refused at start.
    @Test func aProviderWithoutAnAudienceCheckIsRefusedAtStart() throws {
        let arguments = [
            "serve", "--port", "0", "--database", FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID()).sqlite").path,
            "--oauth-provider", "github", "--oauth-client-id", "c", "--oauth-device-url", "http://127.0.0.1:9/d",
            "--oauth-token-url", "http://127.0.0.1:9/t", "--oauth-userinfo-url", "http://127.0.0.1:9/u",
        ]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ONTHEMAP_") }
        environment["ONTHEMAP_OAUTH_AUDIENCE_CHECK"] = nil
        let run = try LaunchedProcess.runBlocking(
            ProductBinary.url("onthemap-server"), arguments, environment: environment, output: .discard)
        #expect(run.status != 0)
        let text = run.stderr
        #expect(text.contains("cannot prove that a token was issued to this app"), "\(text)")
    }

    @Test(arguments: TestBackend.available)
    func oauthLoginMakesTheAccountOnceThenFindsIt(backend: TestBackend) async throws {
        let standIn = try ProviderStandIn()
        defer { standIn.stop() }
        let server = try await Self.start(standIn, backend: backend)
        defer { Task { await server.stop() } }
        let first = try Self.accountKey(try await Self.logIn(server, Self.oauthBody(standIn.issueToken())))
        let again = try Self.accountKey(try await Self.logIn(server, Self.oauthBody(standIn.issueToken())))
        #expect(first == again)
        // The same person through Facebook is another identity, so another account.
        let facebook = try Self.accountKey(try await Self.logIn(server, Self.facebookBody(standIn.issueToken())))
        #expect(facebook != first)
        let users = try await server.withDatabase { try await $0.users() }
        #expect(Set(users.map(\.email)) == ["github:\(ProviderStandIn.ada.id)", "facebook:\(ProviderStandIn.ada.id)"])
        let user = try await RawHTTP.send("GET", server.baseURL, "/v1/users/\(first)")
        #expect((user.json(prefixed: true) as? [String: Any])?["first_name"] as? String == "Ada")
    }

    @Test func unconfiguredProvidersAre400AsBefore() async throws {
        let standIn = try ProviderStandIn()
        defer { standIn.stop() }
        let server = try await Self.start(standIn, facebook: false, oauth: false)
        defer { Task { await server.stop() } }
        let facebook = try await Self.logIn(server, Self.facebookBody(standIn.issueToken()))
        #expect(facebook.status == 400)
        #expect(Self.error(facebook) == "Facebook login is not available on this server.")
        let oauth = try await Self.logIn(server, Self.oauthBody(standIn.issueToken()))
        #expect(oauth.status == 400)
        #expect(Self.error(oauth) == "This login provider is not available on this server.")
        // The stand-in was never asked.
        #expect(standIn.requests.isEmpty)
    }

    @Test func missingFieldsAndUnknownProvidersAre400() async throws {
        let standIn = try ProviderStandIn()
        defer { standIn.stop() }
        let server = try await Self.start(standIn)
        defer { Task { await server.stop() } }
        let noToken = try await Self.logIn(server, #"{"facebook_mobile":{}}"#)
        #expect(noToken.status == 400)
        #expect((noToken.json(prefixed: true) as? [String: Any])?["parameter"] as? String == "facebook_mobile.access_token")
        let noProvider = try await Self.logIn(server, #"{"oauth":{"access_token":"x"}}"#)
        #expect((noProvider.json(prefixed: true) as? [String: Any])?["parameter"] as? String == "oauth.provider")
        let unknown = try await Self.logIn(server, Self.oauthBody("x", provider: #"gitlab\u001b[2J"#))
        #expect(unknown.status == 400)
        #expect(Self.error(unknown) == "This login provider is not available on this server.")
        let two = try await Self.logIn(server, #"{"oauth":{"provider":"github","access_token":"x"},"facebook_mobile":{"access_token":"y"}}"#)
        #expect(Self.error(two) == "Did not specify exactly one credential.")
        #expect(standIn.requests.isEmpty)
    }

    @Test func anUnreachableProviderIs502() async throws {
        let server = try await TestServer.start { configuration in
            configuration.facebook = FacebookSettings(
                appID: "a", clientToken: "c", appSecret: "s", graphURL: URL(string: "http://127.0.0.1:\(closedPort())")!)
        }
        defer { Task { await server.stop() } }
        // More tries than --login-failures (5): an outage is no guess, so the address is never blocked.
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<7 {
            let reply = try await Self.logIn(server, Self.facebookBody("anything"))
            #expect(reply.status == 502)
            #expect(Self.error(reply) == "Facebook could not be reached to check the token. Try again later.")
        }
        // A refused connection is answered at once, not retried until the 10 s deadline: seven
        // tries that each waited it out would take 70 s. Their sum is bounded, not each one: on a
        // loaded machine one try has taken 11 s.
        #expect(clock.now - start < .seconds(50))
    }

    @Test func discoveryListsExactlyWhatIsConfigured() async throws {
        let standIn = try ProviderStandIn()
        defer { standIn.stop() }
        for (facebook, oauth) in [(false, false), (true, false), (false, true), (true, true)] {
            let server = try await Self.start(standIn, facebook: facebook, oauth: oauth)
            let reply = try await RawHTTP.send("GET", server.baseURL, "/v1/auth/providers")
            await server.stop()
            let providers = try #require((reply.json(prefixed: true) as? [String: Any])?["providers"] as? [[String: Any]])
            var expected = ["password"]
            if facebook { expected.append("facebook") }
            if oauth { expected.append("oauth") }
            #expect(providers.map { $0["type"] as? String } == expected)
            #expect(!reply.text.contains(standIn.appSecret))
            if let entry = providers.first(where: { $0["type"] as? String == "facebook" }) {
                #expect(entry["appId"] as? String == standIn.appID)
                #expect(entry["clientToken"] as? String == standIn.clientToken)
                #expect(entry["deviceURL"] as? String == standIn.graphURL.absoluteString + "/device/login")
                #expect(entry["tokenURL"] as? String == standIn.graphURL.absoluteString + "/device/login_status")
            }
            if let entry = providers.first(where: { $0["type"] as? String == "oauth" }) {
                #expect(entry["name"] as? String == "github")
                #expect(entry["clientId"] as? String == standIn.oauthClientID)
                #expect(entry["deviceURL"] as? String == standIn.oauth().deviceURL.absoluteString)
                #expect(entry["tokenURL"] as? String == standIn.oauth().tokenURL.absoluteString)
            }
        }
    }
}
