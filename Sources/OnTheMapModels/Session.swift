/// `POST /session` body: `{"udacity":{"username":…,"password":…}}`.
public struct SessionRequest: Codable, Sendable, Hashable {
    public struct Credentials: Codable, Sendable, Hashable {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    public var udacity: Credentials

    public init(username: String, password: String) {
        udacity = Credentials(username: username, password: password)
    }
}

/// The `session` object: an id and its expiry (`2015-05-10T16:48:30.760460Z`).
public struct SessionInfo: Codable, Sendable, Hashable {
    public var id: String
    public var expiration: String

    public init(id: String, expiration: String) {
        self.id = id
        self.expiration = expiration
    }
}

/// `POST /session` answer: the account key and the session.
public struct SessionResponse: Codable, Sendable, Hashable {
    public struct Account: Codable, Sendable, Hashable {
        public var registered: Bool
        public var key: String

        public init(registered: Bool, key: String) {
            self.registered = registered
            self.key = key
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            registered = (try? container.decode(Bool.self, forKey: .registered)) ?? true
            // Keys were numeric strings, `u…` strings, and sometimes bare numbers.
            guard let key = try container.decode(JSONValue.self, forKey: .key).stringValue else {
                throw DecodingError.dataCorruptedError(forKey: .key, in: container, debugDescription: "account key")
            }
            self.key = key
        }
    }

    public var account: Account
    public var session: SessionInfo

    public init(account: Account, session: SessionInfo) {
        self.account = account
        self.session = session
    }
}

/// `DELETE /session` answer: `{"session":{…}}`.
public struct DeleteSessionResponse: Codable, Sendable, Hashable {
    public var session: SessionInfo

    public init(session: SessionInfo) { self.session = session }
}

/// The error body of the session and users endpoints: `{"status":403,"error":"…"}`.
public struct UdacityErrorBody: Codable, Sendable, Hashable {
    public var status: Int
    public var error: String
    public var parameter: String?

    public init(status: Int, error: String, parameter: String? = nil) {
        self.status = status
        self.error = error
        self.parameter = parameter
    }
}

/// `POST /v1/users` (sign-up) body. The answer is a `SessionResponse`: signing up logs in.
public struct SignUpRequest: Codable, Sendable, Hashable {
    public var email: String
    public var password: String
    public var firstName: String
    public var lastName: String
    /// The invite code, when the server's sign-up policy is `invite` (`SignUpPolicy`).
    public var invite: String?

    enum CodingKeys: String, CodingKey {
        case email, password, invite
        case firstName = "first_name"
        case lastName = "last_name"
    }

    public init(email: String, password: String, firstName: String, lastName: String, invite: String? = nil) {
        self.email = email
        self.password = password
        self.firstName = firstName
        self.lastName = lastName
        self.invite = invite
    }
}
