import Foundation
import OnTheMapModels
import ServerTestSupport
import Testing

@testable import APIClient

/// The live device login against the providers' stand-in on loopback, then the token through
/// a real server: discovery → code → polls → session (issue 12, items 2–4).
@Suite struct DeviceLoginClientTests {
    /// The providers a server configured with the stand-in announces.
    func discovered(_ server: TestServer) async throws -> [DeviceLoginProvider] {
        let api = OnTheMapClient(configuration: APIConfiguration(baseURL: server.baseURL, timeout: TestServer.clientTimeout))
        return DeviceLoginProvider.all(in: try await api.authProviders())
    }

    @Test func discoveryToSessionForFacebookAndTheOAuthProvider() async throws {
        let standIn = try ProviderStandIn()
        defer { standIn.stop() }
        let server = try await TestServer.start { configuration in
            configuration.facebook = standIn.facebook
            configuration.oauthProviders = [standIn.oauth()]
        }
        defer { Task { await server.stop() } }
        let providers = try await discovered(server)
        #expect(providers.map(\.name) == ["facebook", "github"])
        #expect(providers.map(\.displayName) == ["Facebook", "GitHub"])

        var keys: [String] = []
        for provider in providers {
            standIn.script(pending: 3, slowDownAt: [2], outcome: .approve(ProviderStandIn.ada))
            let devices = DeviceLoginClient(timeout: TestServer.clientTimeout)
            let code = try await devices.requestCode(provider)
            #expect(code.userCode == "WDJB-MJHT")
            #expect(code.verificationURL.absoluteString == "https://example.com/device")
            #expect(code.interval == 1)
            var answers: [DevicePoll] = []
            var token: String?
            while token == nil, answers.count < 10 {
                let answer = try await devices.poll(provider, code: code)
                answers.append(answer)
                if case .approved(let value) = answer { token = value }
            }
            #expect(answers.dropLast() == [.pending, .slowDown, .pending])
            let api = OnTheMapClient(configuration: APIConfiguration(baseURL: server.baseURL, timeout: TestServer.clientTimeout))
            let session = try await api.logIn(with: provider.credential(accessToken: try #require(token)))
            keys.append(session.accountKey)
            try await api.logOut()
        }
        #expect(Set(keys).count == 2, "a Facebook and a GitHub identity are two accounts")
        // What the device sent: Facebook's app token and code, RFC 8628's client id, device code and grant type.
        let bodies = standIn.requests.map { $0.target + " " + String(decoding: $0.body, as: UTF8.self) }
        #expect(bodies.contains { $0.hasPrefix("/graph/device/login ") && $0.contains("access_token=stand-in-app%7Cstand-in-client-token") })
        #expect(bodies.contains { $0.hasPrefix("/graph/device/login_status ") && $0.contains("code=device-123") })
        #expect(bodies.contains {
            $0.hasPrefix("/oauth/token ") && $0.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code")
        })
    }

    @Test(arguments: [(ProviderStandIn.Outcome.deny, DevicePoll.denied), (.expire, .expired)])
    func deniedAndExpiredAreRecognisedForBoth(outcome: ProviderStandIn.Outcome, expected: DevicePoll) async throws {
        let standIn = try ProviderStandIn()
        defer { standIn.stop() }
        let base = standIn.graphURL.deletingLastPathComponent()
        let answer = AuthProviders(providers: [
            .init(type: "facebook", appId: standIn.appID, clientToken: standIn.clientToken,
                  deviceURL: standIn.facebook.deviceURL.absoluteString, tokenURL: standIn.facebook.tokenURL.absoluteString),
            .init(type: "oauth", name: "github", clientId: standIn.oauthClientID,
                  deviceURL: base.appendingPathComponent("oauth/device/code").absoluteString,
                  tokenURL: base.appendingPathComponent("oauth/token").absoluteString),
        ])
        for provider in DeviceLoginProvider.all(in: answer) {
            standIn.script(pending: 0, outcome: outcome)
            let devices = DeviceLoginClient(timeout: TestServer.clientTimeout)
            let code = try await devices.requestCode(provider)
            #expect(try await devices.poll(provider, code: code) == expected)
        }
    }

    @Test func discoveryLeavesOutWhatCannotBeUsed() {
        let answer = AuthProviders(providers: [
            .init(type: "password", signup: .open),
            .init(type: "facebook", appId: "1", clientToken: "c", deviceURL: "file:///etc/passwd", tokenURL: "https://x/t"),
            .init(type: "oauth", name: "Evil\u{1b}[2J", clientId: "c", deviceURL: "https://x/d", tokenURL: "https://x/t"),
            .init(type: "oauth", name: "gitlab", clientId: "c", deviceURL: "https://x/d", tokenURL: "https://x/t"),
            .init(type: "saml", name: "corp"),
        ])
        #expect(DeviceLoginProvider.all(in: answer).map(\.name) == ["gitlab"])
    }

    @Test func theCurrentClientStillDecodesTheNewAnswerAndTheOldOne() throws {
        let new = #"{"providers":[{"type":"password","signup":"invite"},{"type":"facebook","appId":"1","clientToken":"c","deviceURL":"https://g/device/login","tokenURL":"https://g/device/login_status","scope":"public_profile"}]}"#
        let decoded = try JSONDecoder().decode(AuthProviders.self, from: Data(new.utf8))
        #expect(decoded.signUpPolicy == .invite)
        let old = #"{"providers":[{"type":"password","signup":"open"}]}"#
        #expect(DeviceLoginProvider.all(in: try JSONDecoder().decode(AuthProviders.self, from: Data(old.utf8))).isEmpty)
    }
}
