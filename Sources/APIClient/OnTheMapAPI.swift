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
}

extension OnTheMapAPI {
    /// The `count` most recent usable locations, fetching further pages when rows had to be
    /// skipped, so that broken rows do not shorten the list.
    /// - Returns: the locations and the number of rows skipped on the way.
    public func recentLocations(count: Int, pageSize: Int = 100) async throws(APIError) -> StudentLocationList {
        var collected: [StudentInformation] = []
        var skipped = 0
        var offset = 0
        let size = max(1, min(pageSize, max(count, 1)))
        while collected.count < count {
            let page = try await locations(LocationQuery(limit: size, skip: offset))
            collected += page.locations
            skipped += page.skipped
            offset += page.locations.count + page.skipped
            if page.locations.count + page.skipped < size { break }
        }
        return StudentLocationList(locations: Array(collected.prefix(count)), skipped: skipped)
    }
}
