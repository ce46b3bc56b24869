/// A login provider's token as `POST …/session` takes it: `{"facebook_mobile":{"access_token":…}}`
/// (the original services' shape) or `{"oauth":{"provider":NAME,"access_token":…}}`.
public enum ProviderCredential: Sendable, Hashable, Encodable {
    case facebook(accessToken: String)
    case oauth(provider: String, accessToken: String)

    private enum Keys: String, CodingKey { case facebook_mobile, oauth }
    private enum Fields: String, CodingKey { case provider, access_token }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .facebook(let token):
            var fields = container.nestedContainer(keyedBy: Fields.self, forKey: .facebook_mobile)
            try fields.encode(token, forKey: .access_token)
        case .oauth(let provider, let token):
            var fields = container.nestedContainer(keyedBy: Fields.self, forKey: .oauth)
            try fields.encode(provider, forKey: .provider)
            try fields.encode(token, forKey: .access_token)
        }
    }
}
