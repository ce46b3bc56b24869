/// A user's public data, as `GET /users/<key>` answers it (wrapped in `{"user":…}` on `/api`).
public struct PublicUser: Codable, Sendable, Hashable {
    public struct Email: Codable, Sendable, Hashable {
        public var address: String
        public var verified: Bool

        enum CodingKeys: String, CodingKey {
            case address
            case verified = "_verified"
        }

        public init(address: String, verified: Bool) {
            self.address = address
            self.verified = verified
        }
    }

    public var key: String
    public var firstName: String
    public var lastName: String
    public var nickname: String?
    public var email: Email?
    public var imageURL: String?
    public var websiteURL: String?
    /// `student` or `moderator`: only in the answer to the account's own session (Docs/Access.md).
    public var role: String?

    enum CodingKeys: String, CodingKey {
        case key, nickname, email, role
        case firstName = "first_name"
        case lastName = "last_name"
        case imageURL = "_image_url"
        case websiteURL = "website_url"
    }

    public init(
        key: String, firstName: String, lastName: String, nickname: String? = nil, email: Email? = nil,
        imageURL: String? = nil, websiteURL: String? = nil, role: String? = nil
    ) {
        self.key = key
        self.firstName = firstName
        self.lastName = lastName
        self.nickname = nickname
        self.email = email
        self.imageURL = imageURL
        self.websiteURL = websiteURL
        self.role = role
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = (try? container.decode(JSONValue.self, forKey: .key))?.stringValue ?? ""
        firstName = (try? container.decodeIfPresent(String.self, forKey: .firstName)) ?? ""
        lastName = (try? container.decodeIfPresent(String.self, forKey: .lastName)) ?? ""
        nickname = try? container.decodeIfPresent(String.self, forKey: .nickname)
        email = try? container.decodeIfPresent(Email.self, forKey: .email)
        imageURL = try? container.decodeIfPresent(String.self, forKey: .imageURL)
        websiteURL = try? container.decodeIfPresent(String.self, forKey: .websiteURL)
        role = try? container.decodeIfPresent(String.self, forKey: .role)
    }

    /// Whether the server names this account a moderator.
    public var isModerator: Bool { role == "moderator" }
}

/// `/api/users/<key>` wraps the user: `{"user":{…}}`.
public struct WrappedPublicUser: Codable, Sendable, Hashable {
    public var user: PublicUser

    public init(user: PublicUser) { self.user = user }
}
