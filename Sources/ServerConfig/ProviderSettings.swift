import Foundation

/// Facebook Login for Devices, as the operator registered it (`--facebook-app-id` …).
public struct FacebookSettings: Sendable, Hashable {
    /// Public: the app shows it to Facebook when it asks for a device code.
    public var appID: String
    /// Public by design (Facebook's "client token", embedded in apps).
    public var clientToken: String
    /// Secret: only the server checks tokens with it (`debug_token`). Never logged.
    public var appSecret: String
    /// Facebook's Graph API; tests point it at a stand-in.
    public var graphURL: URL

    public static let defaultGraphURL = URL(string: "https://graph.facebook.com/v19.0")!

    public init(appID: String, clientToken: String, appSecret: String, graphURL: URL = FacebookSettings.defaultGraphURL) {
        self.appID = appID
        self.clientToken = clientToken
        self.appSecret = appSecret
        self.graphURL = graphURL
    }

    /// `POST` here for a device code (`code`, `user_code`, `verification_uri`, `interval`).
    public var deviceURL: URL { graphURL.appendingPathComponent("device/login") }
    /// `POST` here to poll (`device/login_status`).
    public var tokenURL: URL { graphURL.appendingPathComponent("device/login_status") }
}

/// An OAuth 2.0 Device Authorization Grant provider (RFC 8628), such as GitHub.
public struct OAuthProviderSettings: Sendable, Hashable {
    /// The name in the credential and in discovery (`github`): lowercase letters, digits, `-`, `_`.
    public var name: String
    /// Public: a device-flow client has no secret.
    public var clientID: String
    public var deviceURL: URL
    public var tokenURL: URL
    /// Read with the person's token to learn who they are (`id` or `sub`, and names).
    public var userinfoURL: URL
    /// Asked for in the device request (`read:user` for GitHub); empty for none.
    public var scope: String
    /// How the server proves that a token was issued to this client id (a userinfo answer alone
    /// does not say: any app the person ever authorised holds a token it accepts).
    public var audienceCheck: OAuthAudienceCheck

    public init(
        name: String, clientID: String, deviceURL: URL, tokenURL: URL, userinfoURL: URL, scope: String = "",
        audienceCheck: OAuthAudienceCheck
    ) {
        self.name = name
        self.clientID = clientID
        self.deviceURL = deviceURL
        self.tokenURL = tokenURL
        self.userinfoURL = userinfoURL
        self.scope = scope
        self.audienceCheck = audienceCheck
    }

    /// Whether `name` is acceptable as a provider name.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 32 && name != "facebook" && name != "password"
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }
}

/// The provider-specific call that proves a token's audience (`--oauth-audience-check`).
public enum OAuthAudienceCheck: Sendable, Hashable {
    /// GitHub's "check a token": `POST {api}/applications/{client_id}/token` with the client id and
    /// secret as Basic credentials and `{"access_token": …}`; 200 only for this app's own tokens.
    case github(apiURL: URL, clientSecret: String)
    /// RFC 7662 token introspection, authenticated with the client id and secret: the answer must
    /// be `active` with `client_id` (or `aud`) this client id.
    case introspection(url: URL, clientSecret: String)
    /// Google's tokeninfo (`GET …?access_token=…`, no secret): `aud` (or `azp`) must be this client id.
    case tokeninfo(url: URL)

    public static let defaultGitHubAPI = URL(string: "https://api.github.com")!
    public static let defaultTokeninfo = URL(string: "https://oauth2.googleapis.com/tokeninfo")!
}
