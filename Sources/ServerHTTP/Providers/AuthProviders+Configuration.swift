import OnTheMapModels
import ServerConfig

extension AuthProviders {
    /// What `configuration` accepts: password always, then Facebook and each OAuth provider when
    /// configured, with their public values only (never the app secret).
    static func offered(by configuration: ServerConfiguration) -> AuthProviders {
        var providers = [Provider(type: "password", signup: configuration.signUp)]
        if let facebook = configuration.facebook {
            providers.append(
                Provider(
                    type: "facebook", name: "facebook", appId: facebook.appID, clientToken: facebook.clientToken,
                    deviceURL: facebook.deviceURL.absoluteString, tokenURL: facebook.tokenURL.absoluteString,
                    scope: "public_profile"))
        }
        for oauth in configuration.oauthProviders {
            providers.append(
                Provider(
                    type: "oauth", name: oauth.name, clientId: oauth.clientID, deviceURL: oauth.deviceURL.absoluteString,
                    tokenURL: oauth.tokenURL.absoluteString, scope: oauth.scope.isEmpty ? nil : oauth.scope))
        }
        return AuthProviders(providers: providers)
    }
}
