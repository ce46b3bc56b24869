import APIClient
import Foundation
import OnTheMapModels

/// A scripted server for view-model and screen tests: answers from its fields, cuts pages from
/// `rows` by skip and limit, and records what was asked.
public actor FakeAPI: OnTheMapAPI {
    /// The account the default login answers with.
    public static let accountKey = "me"

    public var loginResult: Result<UserSession, APIError>
    /// The whole list as the server holds it, newest first; `nil` is a broken row that decoding skips.
    public var rows: [StudentInformation?]
    public var locationsError: APIError?
    public var logOutError: APIError?
    public var mine: [StudentInformation] = []
    /// When set, what creating or updating a row fails with.
    public var writeError: APIError?
    public var user = PublicUser(key: FakeAPI.accountKey, firstName: "Ada", lastName: "Lovelace")
    /// What `GET …/auth/providers` answers.
    public var providers: Result<AuthProviders, APIError> = .success(.originalServices)
    /// When set, what a sign-up answers (else `loginResult`).
    public var signUpResult: Result<UserSession, APIError>?
    public private(set) var signUps: [SignUpRequest] = []
    public private(set) var calls: [String] = []
    public private(set) var created: [NewStudentLocation] = []
    public private(set) var updated: [(String, NewStudentLocation)] = []

    public init(
        rows: [StudentInformation] = SampleRows.all, login: Result<UserSession, APIError>? = nil,
        signUpPolicy: SignUpPolicy? = nil
    ) {
        self.rows = rows
        if let signUpPolicy { providers = .success(AuthProviders(providers: [.init(type: "password", signup: signUpPolicy)])) }
        self.loginResult =
            login ?? .success(UserSession(accountKey: FakeAPI.accountKey, sessionID: "s", expiration: "e"))
    }

    public func set(login: Result<UserSession, APIError>) { loginResult = login }
    public func set(rows: [StudentInformation?]) { self.rows = rows }
    public func set(locationsError: APIError?) { self.locationsError = locationsError }
    public func set(logOutError: APIError?) { self.logOutError = logOutError }
    public func set(mine: [StudentInformation]) { self.mine = mine }
    public func set(providers: Result<AuthProviders, APIError>) { self.providers = providers }
    public func set(signUp: Result<UserSession, APIError>) { signUpResult = signUp }
    public func set(user: PublicUser) { self.user = user }
    public func set(writeError: APIError?) { self.writeError = writeError }

    public func authProviders() async throws(APIError) -> AuthProviders {
        calls.append("authProviders")
        return try providers.get()
    }

    public func logIn(email: String, password: String) async throws(APIError) -> UserSession {
        calls.append("logIn \(email)")
        return try loginResult.get()
    }

    /// What a provider login answers (else `loginResult`), and the credentials it was sent.
    public var providerLoginResult: Result<UserSession, APIError>?
    public private(set) var providerCredentials: [ProviderCredential] = []
    public func set(providerLogin: Result<UserSession, APIError>) { providerLoginResult = providerLogin }

    public func logIn(with credential: ProviderCredential) async throws(APIError) -> UserSession {
        calls.append("logIn provider")
        providerCredentials.append(credential)
        return try (providerLoginResult ?? loginResult).get()
    }

    public func signUp(_ request: SignUpRequest) async throws(APIError) -> UserSession {
        calls.append("signUp \(request.email)")
        signUps.append(request)
        return try (signUpResult ?? loginResult).get()
    }

    public func logOut() async throws(APIError) {
        calls.append("logOut")
        if let logOutError { throw logOutError }
    }

    public func publicUser(key: String) async throws(APIError) -> PublicUser {
        calls.append("publicUser \(key)")
        return user
    }

    public func locations(_ query: LocationQuery) async throws(APIError) -> StudentLocationList {
        calls.append("locations skip=\(query.skip) limit=\(query.limit)")
        if let locationsError { throw locationsError }
        let slice = rows.dropFirst(query.skip).prefix(query.limit)
        let usable = slice.compactMap { $0 }
        return StudentLocationList(locations: usable, skipped: slice.count - usable.count)
    }

    public func locations(ofUser key: String) async throws(APIError) -> [StudentInformation] {
        calls.append("locationsOf \(key)")
        return mine
    }

    public func createLocation(_ location: NewStudentLocation) async throws(APIError) -> CreatedLocation {
        calls.append("create")
        if let writeError { throw writeError }
        created.append(location)
        // The new row goes on top, as the server lists newest first.
        let row = StudentInformation(
            objectId: "new1", uniqueKey: location.uniqueKey, firstName: location.firstName,
            lastName: location.lastName, mapString: location.mapString, mediaURL: location.mediaURL,
            latitude: location.latitude, longitude: location.longitude, createdAt: TestClock.start,
            updatedAt: TestClock.start)
        rows.insert(row, at: 0)
        return CreatedLocation(createdAt: "2026-01-01T00:00:00.000Z", objectId: "new1")
    }

    public func updateLocation(
        objectId: String, with location: NewStudentLocation
    ) async throws(APIError)
        -> UpdatedLocation
    {
        calls.append("update \(objectId)")
        updated.append((objectId, location))
        return UpdatedLocation(updatedAt: "2026-01-01T00:00:00.000Z")
    }

    // MARK: Your data and moderation (Docs/Access.md)

    /// When set, what deleting, hiding or unhiding a row fails with.
    public var rowError: APIError?
    /// When set, what deleting the account fails with (else it answers with the counts of `mine`).
    public var accountDeletionError: APIError?
    public private(set) var deletedRows: [String] = []
    public private(set) var hidden: [(objectId: String, reason: String)] = []
    public private(set) var unhidden: [String] = []
    public private(set) var accountDeletions: [(key: String, password: String?)] = []
    public func set(rowError: APIError?) { self.rowError = rowError }
    public func set(accountDeletionError: APIError?) { self.accountDeletionError = accountDeletionError }

    /// Removes the row from `rows` and `mine`, as the server would.
    public func deleteLocation(objectId: String) async throws(APIError) {
        calls.append("delete \(objectId)")
        if let rowError { throw rowError }
        deletedRows.append(objectId)
        rows.removeAll { $0?.objectId == objectId }
        mine.removeAll { $0.objectId == objectId }
    }

    public func deleteAccount(key: String, password: String?) async throws(APIError) -> AccountDeletion {
        calls.append("deleteAccount \(key)")
        accountDeletions.append((key, password))
        if let accountDeletionError { throw accountDeletionError }
        let count = mine.count
        rows.removeAll { $0?.uniqueKey == key }
        mine = []
        return AccountDeletion(locations: count, sessions: 1)
    }

    public func exportAccount(key: String) async throws(APIError) -> AccountExport {
        calls.append("export \(key)")
        let account: JSONValue = .object(["key": .string(key), "firstName": .string(user.firstName)])
        let encoded = (try? JSONEncoder().encode(mine)).flatMap { try? JSONDecoder().decode([JSONValue].self, from: $0) }
        return AccountExport(account: account, locations: encoded ?? [])
    }

    /// Marks the row hidden in `rows`, as a moderator's list would show it.
    public func hideLocation(objectId: String, reason: String) async throws(APIError) {
        calls.append("hide \(objectId)")
        if let rowError { throw rowError }
        hidden.append((objectId, reason))
        for index in rows.indices where rows[index]?.objectId == objectId {
            rows[index]?.hidden = true
            rows[index]?.hiddenReason = reason
        }
    }

    public func unhideLocation(objectId: String) async throws(APIError) {
        calls.append("unhide \(objectId)")
        if let rowError { throw rowError }
        unhidden.append(objectId)
        for index in rows.indices where rows[index]?.objectId == objectId {
            rows[index]?.hidden = false
            rows[index]?.hiddenReason = nil
        }
    }
}
