/// `GET /v1/auth/providers` (and `/api/auth/providers`) answer, behind the `)]}'` prefix: the ways
/// this server lets a person in, so that a client needs no configuration of its own.
///
/// `{"providers":[{"type":"password","signup":"invite"}]}`. A server without this endpoint (the
/// original services) is taken as password login with open sign-up.
public struct AuthProviders: Codable, Sendable, Hashable {
    public var providers: [Provider]

    public init(providers: [Provider]) { self.providers = providers }

    /// One way in. Unknown types are kept (decoded) and ignored by clients that don't know them.
    public struct Provider: Codable, Sendable, Hashable {
        /// `password` (later also `facebook`, `oauth`).
        public var type: String
        /// For `password`: whether sign-up is `open`, needs an `invite` code, or is `closed`.
        public var signup: SignUpPolicy?

        public init(type: String, signup: SignUpPolicy? = nil) {
            self.type = type
            self.signup = signup
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
