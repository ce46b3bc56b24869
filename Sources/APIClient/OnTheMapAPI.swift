import OnTheMapModels

/// A logged-in session: whose it is and its id.
public struct UserSession: Sendable, Hashable {
    public var accountKey: String
    public var sessionID: String
    public var expiration: String

    public init(accountKey: String, sessionID: String, expiration: String) {
        self.accountKey = accountKey
        self.sessionID = sessionID
        self.expiration = expiration
    }
}

/// A page request for the StudentLocation list.
public struct LocationQuery: Sendable, Hashable {
    public var limit: Int
    public var skip: Int
    /// Parse `order`: comma-separated keys, `-` for descending.
    public var order: String
    /// Parse `where`, as a JSON object.
    public var whereClause: JSONValue?

    public init(limit: Int = 100, skip: Int = 0, order: String = "-updatedAt", whereClause: JSONValue? = nil) {
        self.limit = limit
        self.skip = skip
        self.order = order
        self.whereClause = whereClause
    }
}

/// What the app needs from the server. `OnTheMapClient` is the live implementation; view-model
/// tests use fakes. Every method throws `APIError`.
public protocol OnTheMapAPI: Sendable {
    /// Logs in with email and password; later writes are sent with this session.
    func logIn(email: String, password: String) async throws(APIError) -> UserSession
    /// Logs in with a login provider's token (Facebook, an OAuth device-login provider). A 403
    /// is `providerTokenRefused`.
    func logIn(with credential: ProviderCredential) async throws(APIError) -> UserSession
    /// How this server lets people in, above all its sign-up policy (`GET …/auth/providers`). A
    /// server without the endpoint (the original services) answers password login, open sign-up.
    func authProviders() async throws(APIError) -> AuthProviders
    /// Creates an account and logs into it.
    func signUp(_ request: SignUpRequest) async throws(APIError) -> UserSession
    /// Deletes the current session (with the XSRF header) and forgets it.
    func logOut() async throws(APIError)
    /// A user's public data (first and last name for posting).
    func publicUser(key: String) async throws(APIError) -> PublicUser
    /// One page of locations; unusable rows are skipped and counted.
    func locations(_ query: LocationQuery) async throws(APIError) -> StudentLocationList
    /// The rows whose `uniqueKey` is `key`, newest first.
    func locations(ofUser key: String) async throws(APIError) -> [StudentInformation]
    /// POSTs a new row.
    func createLocation(_ location: NewStudentLocation) async throws(APIError) -> CreatedLocation
    /// PUTs over an existing row.
    func updateLocation(objectId: String, with location: NewStudentLocation) async throws(APIError) -> UpdatedLocation
    /// DELETEs a row: your own (a moderator: any). Another's row is `notAllowed`.
    func deleteLocation(objectId: String) async throws(APIError)
    /// Deletes the logged-in account, its rows and its sessions; `password` is asked again (nil
    /// for an account that has none, e.g. one made by a provider login). A wrong one is
    /// `invalidCredentials`.
    func deleteAccount(key: String, password: String?) async throws(APIError) -> AccountDeletion
    /// The logged-in account's data and every row of it, hidden ones marked.
    func exportAccount(key: String) async throws(APIError) -> AccountExport
    /// Moderators: hides a row from everyone but its owner and moderators, with a reason.
    func hideLocation(objectId: String, reason: String) async throws(APIError)
    /// Moderators: shows a hidden row again.
    func unhideLocation(objectId: String) async throws(APIError)
}

/// Usable rows read from a position in the list, with where reading stopped.
public struct UsableLocationsPage: Sendable, Equatable {
    /// The usable rows, at most the number asked for, in the server's order.
    public var list: StudentLocationList
    /// How many rows of the list were read (usable plus skipped): the `skip` to continue from.
    public var rowsRead: Int
    /// True when the server ran out of rows before enough usable ones were found.
    public var isExhausted: Bool

    public init(list: StudentLocationList, rowsRead: Int, isExhausted: Bool) {
        self.list = list
        self.rowsRead = rowsRead
        self.isExhausted = isExhausted
    }
}

extension OnTheMapAPI {
    /// Without a discovery of its own, an API is taken as the original services were: password
    /// login, open sign-up.
    public func authProviders() async throws(APIError) -> AuthProviders { .originalServices }

    /// The `count` most recent usable locations, fetching further pages when rows had to be
    /// skipped, so that broken rows do not shorten the list.
    /// - Returns: the locations and the number of rows skipped on the way.
    public func recentLocations(count: Int, pageSize: Int = 100) async throws(APIError) -> StudentLocationList {
        try await usableLocations(count: count, skip: 0, pageSize: pageSize).list
    }

    /// Up to `count` usable locations starting at row `skip` (newest first), asking for further
    /// pages while rows had to be skipped. Each later request asks only for the rows still
    /// missing, so no row is read and dropped: `rowsRead` is exactly where to continue.
    public func usableLocations(count: Int, skip: Int, pageSize: Int = 100) async throws(APIError)
        -> UsableLocationsPage
    {
        var collected: [StudentInformation] = []
        var skipped = 0
        var offset = skip
        var exhausted = false
        let maximum = max(1, pageSize)
        while collected.count < count {
            let size = min(maximum, count - collected.count)
            let page = try await locations(LocationQuery(limit: size, skip: offset))
            collected += page.locations.prefix(size)
            skipped += page.skipped
            offset += min(size, page.locations.count + page.skipped)
            if page.locations.count + page.skipped < size {
                exhausted = true
                break
            }
        }
        return UsableLocationsPage(
            list: StudentLocationList(locations: collected, skipped: skipped), rowsRead: offset - skip,
            isExhausted: exhausted)
    }
}

extension AuthProviders {
    /// What a server that has no `…/auth/providers` endpoint offers: password login, open sign-up.
    public static let originalServices = AuthProviders(providers: [Provider(type: "password", signup: .open)])
}
