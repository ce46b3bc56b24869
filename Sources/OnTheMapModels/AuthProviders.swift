/// `GET /v1/auth/providers` (and `/api/auth/providers`) answer, behind the `)]}'` prefix: the ways
/// this server lets a person in, so that a client needs no configuration of its own.
///
/// `{"providers":[{"type":"password","signup":"invite"},{"type":"facebook","appId":…,"clientToken":…,
/// "deviceURL":…,"tokenURL":…}]}`. A server without this endpoint (the original services) is
/// taken as password login with open sign-up. Every field but `type` is optional, so older
/// clients decode newer answers and the other way round.
public struct AuthProviders: Codable, Sendable, Hashable {
    public var providers: [Provider]

    public init(providers: [Provider]) { self.providers = providers }

    /// One way in. Unknown types are kept (decoded) and ignored by clients that don't know them.
    public struct Provider: Codable, Sendable, Hashable {
        /// `password`, `facebook` (Facebook Login for Devices) or `oauth` (an RFC 8628 provider).
        public var type: String
        /// For `password`: whether sign-up is `open`, needs an `invite` code, or is `closed`.
        public var signup: SignUpPolicy?
        /// For `oauth`: the provider's name, sent back in the credential (`github`).
        public var name: String?
        /// For `facebook`: the public app id and client token (`access_token=APP_ID|CLIENT_TOKEN`).
        public var appId: String?
        public var clientToken: String?
        /// For `oauth`: the public client id.
        public var clientId: String?
        /// Where the device asks for a code, and where it polls for the token.
        public var deviceURL: String?
        public var tokenURL: String?
        /// The scope to ask for, if any.
        public var scope: String?

        public init(
            type: String, signup: SignUpPolicy? = nil, name: String? = nil, appId: String? = nil, clientToken: String? = nil,
            clientId: String? = nil, deviceURL: String? = nil, tokenURL: String? = nil, scope: String? = nil
        ) {
            self.type = type
            self.signup = signup
            self.name = name
            self.appId = appId
            self.clientToken = clientToken
            self.clientId = clientId
            self.deviceURL = deviceURL
            self.tokenURL = tokenURL
            self.scope = scope
        }
    }

    /// The password provider's sign-up policy, if the server lists one.
    public var signUpPolicy: SignUpPolicy? {
        providers.first { $0.type == "password" }?.signup
    }
}

/// Who may create an account with `POST …/users`.
public enum SignUpPolicy: String, Codable, Sendable, Hashable, CaseIterable {
    /// Anyone (limited per address).
    case open
    /// Only with an invite code (`"invite"` in the sign-up body) from `onthemap-server invite create`.
    case invite
    /// Nobody: accounts are made by the operator (`onthemap-server user add`).
    case closed
}
