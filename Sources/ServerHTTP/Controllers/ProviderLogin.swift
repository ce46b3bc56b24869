import Foundation
import Hummingbird
import OnTheMapModels
import ServerConfig
import ServerSessions
import ServerStorage

/// The provider credentials of `POST …/session`: `{"facebook_mobile":{"access_token":…}}` and
/// `{"oauth":{"provider":NAME,"access_token":…}}`. Checks the token with its provider, then
/// finds or makes the account; the session is issued exactly as for a password.
package struct ProviderLogin: Sendable {
    let configuration: ServerConfiguration
    let sessions: SessionAuthority
    let throttle: LoginThrottle
    /// The configured verifiers by provider name (`facebook`, and each OAuth provider's).
    let verifiers: [String: any IdentityVerifier]

    package init(configuration: ServerConfiguration, sessions: SessionAuthority, throttle: LoginThrottle) {
        self.configuration = configuration
        self.sessions = sessions
        self.throttle = throttle
        var verifiers: [String: any IdentityVerifier] = [:]
        let http = ProviderHTTP(exchange: configuration.providerExchange ?? BoundedHTTPProviderExchange())
        if let facebook = configuration.facebook { verifiers["facebook"] = FacebookVerifier(settings: facebook, http: http) }
        for provider in configuration.oauthProviders { verifiers[provider.name] = OAuthVerifier(settings: provider, http: http) }
        self.verifiers = verifiers
    }

    /// The longest token accepted; longer ones are refused without asking the provider.
    static let maxTokenBytes = 4096

    /// The account whose token `credential` (`facebook_mobile` or `oauth`) carries.
    func account(credential: String, fields: JSONValue?, address: String?) async throws -> Account {
        let provider: String
        if credential == "facebook_mobile" {
            provider = "facebook"
            guard verifiers[provider] != nil else {
                throw APIFailure.udacity(.badRequest, "Facebook login is not available on this server.")
            }
        } else {
            guard case .string(let name) = fields?["provider"] else {
                throw APIFailure.udacity(.badRequest, "trails.Error 400: Missing parameter 'provider'", parameter: "oauth.provider")
            }
            // The name is not echoed: it is the client's text.
            guard verifiers[name] != nil, name != "facebook" else {
                throw APIFailure.udacity(.badRequest, "This login provider is not available on this server.")
            }
            provider = name
        }
        guard case .string(let token) = fields?["access_token"] else {
            throw APIFailure.udacity(
                .badRequest, "trails.Error 400: Missing parameter 'access_token'", parameter: credential + ".access_token")
        }
        guard let verifier = verifiers[provider] else { throw APIFailure.udacity(.badRequest, "Unknown provider.") }
        let admission = try await throttle.admitProviderLogin(provider: provider, address: address)
        let profile: ProviderProfile
        do {
            guard !token.isEmpty, token.utf8.count <= Self.maxTokenBytes else { throw ProviderRefusal.invalid(provider: verifier.label) }
            profile = try await verifier.verify(accessToken: token)
        } catch let refusal as ProviderRefusal {
            throw APIFailure.udacity(.forbidden, refusal.message)
        } catch is ProviderUnreachable {
            // The provider's outage is no failed login: it must not block the address.
            try? await throttle.release(admission)
            throw APIFailure.udacity(.badGateway, "\(verifier.label) could not be reached to check the token. Try again later.")
        }
        let account = try await sessions.account(for: profile)
        try await throttle.loginSucceeded(admission)
        return account
    }
}

extension IdentityVerifier {
    /// The provider's name in messages: `Facebook`, or the OAuth provider's name as configured.
    var label: String { provider == "facebook" ? "Facebook" : provider }
}
