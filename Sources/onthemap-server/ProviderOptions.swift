import ArgumentParser
import Foundation
import OnTheMapServer
import ServerConfig

/// `serve`'s login providers: Facebook Login for Devices and one RFC 8628 provider. Each value may
/// also come from the environment (`ONTHEMAP_FACEBOOK_APP_SECRET`…, e.g. the systemd unit's
/// EnvironmentFile) — better for the secret, which then shows in no process list. Environment
/// values are read in `resolve`, not as option defaults, so `--help` never prints them.
struct ProviderOptions: ParsableArguments {
    @Option(help: "Facebook app id; turns on Facebook login (env ONTHEMAP_FACEBOOK_APP_ID).") var facebookAppId: String?
    @Option(help: "Facebook client token, public (env ONTHEMAP_FACEBOOK_CLIENT_TOKEN).") var facebookClientToken: String?
    @Option(help: "Facebook app secret: prefer the environment, ONTHEMAP_FACEBOOK_APP_SECRET. Never logged.")
    var facebookAppSecret: String?
    @Option(help: "Facebook's Graph API (env ONTHEMAP_FACEBOOK_GRAPH_URL; default https://graph.facebook.com/v19.0).")
    var facebookGraphUrl: String?
    @Option(help: "Name of an OAuth device-login provider (RFC 8628), e.g. github (env ONTHEMAP_OAUTH_PROVIDER).")
    var oauthProvider: String?
    @Option(help: "Its public client id (env ONTHEMAP_OAUTH_CLIENT_ID).") var oauthClientId: String?
    @Option(help: "Its device authorization endpoint (env ONTHEMAP_OAUTH_DEVICE_URL).") var oauthDeviceUrl: String?
    @Option(help: "Its token endpoint (env ONTHEMAP_OAUTH_TOKEN_URL).") var oauthTokenUrl: String?
    @Option(help: "Its userinfo endpoint, read with the person's token (env ONTHEMAP_OAUTH_USERINFO_URL).")
    var oauthUserinfoUrl: String?
    @Option(help: "The scope the app asks for, e.g. read:user (env ONTHEMAP_OAUTH_SCOPE).") var oauthScope: String?
    @Option(
        help: """
            How the server proves a token was issued to this client id: github, introspection or tokeninfo \
            (env ONTHEMAP_OAUTH_AUDIENCE_CHECK). Required: a userinfo answer alone does not say.
            """)
    var oauthAudienceCheck: String?
    @Option(
        help: """
            The check's endpoint (env ONTHEMAP_OAUTH_AUDIENCE_URL): GitHub's API root (default https://api.github.com), \
            the RFC 7662 introspection endpoint (required), or tokeninfo (default https://oauth2.googleapis.com/tokeninfo).
            """)
    var oauthAudienceUrl: String?
    @Option(help: "The client secret for github and introspection: prefer the environment, ONTHEMAP_OAUTH_CLIENT_SECRET. Never logged.")
    var oauthClientSecret: String?

    /// A flag's value, else the environment's (empty counts as unset).
    private func value(_ flag: String?, _ variable: String) -> String? {
        let value = flag ?? ProcessInfo.processInfo.environment[variable]
        return value?.isEmpty == false ? value : nil
    }

    /// The configured providers; throws `ValidationError` when one is configured by halves.
    func resolve() throws -> (facebook: FacebookSettings?, oauth: [OAuthProviderSettings]) {
        var facebook: FacebookSettings?
        if let appID = value(facebookAppId, "ONTHEMAP_FACEBOOK_APP_ID") {
            guard let token = value(facebookClientToken, "ONTHEMAP_FACEBOOK_CLIENT_TOKEN"),
                let secret = value(facebookAppSecret, "ONTHEMAP_FACEBOOK_APP_SECRET")
            else {
                throw ValidationError("Facebook login needs the app id, the client token and the app secret.")
            }
            let graph = try value(facebookGraphUrl, "ONTHEMAP_FACEBOOK_GRAPH_URL").map { try Self.url($0, "--facebook-graph-url") }
            facebook = FacebookSettings(
                appID: appID, clientToken: token, appSecret: secret, graphURL: graph ?? FacebookSettings.defaultGraphURL)
        }
        var oauth: [OAuthProviderSettings] = []
        if let name = value(oauthProvider, "ONTHEMAP_OAUTH_PROVIDER") {
            guard OAuthProviderSettings.isValidName(name) else {
                throw ValidationError("--oauth-provider: lowercase letters, digits, - and _ (at most 32), not facebook or password.")
            }
            guard let client = value(oauthClientId, "ONTHEMAP_OAUTH_CLIENT_ID"),
                let device = value(oauthDeviceUrl, "ONTHEMAP_OAUTH_DEVICE_URL"),
                let token = value(oauthTokenUrl, "ONTHEMAP_OAUTH_TOKEN_URL"),
                let userinfo = value(oauthUserinfoUrl, "ONTHEMAP_OAUTH_USERINFO_URL")
            else {
                throw ValidationError("--oauth-provider needs --oauth-client-id, --oauth-device-url, --oauth-token-url and --oauth-userinfo-url.")
            }
            oauth.append(
                OAuthProviderSettings(
                    name: name, clientID: client, deviceURL: try Self.url(device, "--oauth-device-url"),
                    tokenURL: try Self.url(token, "--oauth-token-url"), userinfoURL: try Self.url(userinfo, "--oauth-userinfo-url"),
                    scope: value(oauthScope, "ONTHEMAP_OAUTH_SCOPE") ?? "", audienceCheck: try audienceCheck()))
        }
        return (facebook, oauth)
    }

    /// The configured audience check; refuses a provider whose tokens the server could not tell
    /// apart from those of any other app the person authorised.
    private func audienceCheck() throws -> OAuthAudienceCheck {
        let url = try value(oauthAudienceUrl, "ONTHEMAP_OAUTH_AUDIENCE_URL").map { try Self.url($0, "--oauth-audience-url") }
        let secret = value(oauthClientSecret, "ONTHEMAP_OAUTH_CLIENT_SECRET")
        switch value(oauthAudienceCheck, "ONTHEMAP_OAUTH_AUDIENCE_CHECK") {
        case "github":
            guard let secret else { throw ValidationError("--oauth-audience-check github needs --oauth-client-secret.") }
            return .github(apiURL: url ?? OAuthAudienceCheck.defaultGitHubAPI, clientSecret: secret)
        case "introspection":
            guard let url, let secret else {
                throw ValidationError("--oauth-audience-check introspection needs --oauth-audience-url and --oauth-client-secret.")
            }
            return .introspection(url: url, clientSecret: secret)
        case "tokeninfo":
            return .tokeninfo(url: url ?? OAuthAudienceCheck.defaultTokeninfo)
        case nil:
            throw ValidationError(
                "--oauth-provider needs --oauth-audience-check (github, introspection or tokeninfo): without one the server "
                    + "cannot prove that a token was issued to this app rather than to any other app the person authorised, "
                    + "so it will not trust the provider.")
        case let other?:
            throw ValidationError("--oauth-audience-check: \(other) is not github, introspection or tokeninfo.")
        }
    }

    private static func url(_ text: String, _ flag: String) throws -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw ValidationError("\(flag) must be an http(s) URL.")
        }
        return url
    }

    func validate() throws { _ = try resolve() }
}
