import APIClient
import OnTheMapModels

/// The API client while the connection is still being made (the built-in server starting): the
/// login screen is drawn at once, and a request sent before the server listens waits for it.
struct PendingClient: OnTheMapAPI {
    let connection: Task<Connection?, Never>
    /// How errors name the server when it never started.
    let name: String

    private func client() async throws(APIError) -> OnTheMapClient {
        guard let client = await connection.value?.client else { throw .cannotReachServer(server: name) }
        return client
    }

    func logIn(email: String, password: String) async throws(APIError) -> UserSession {
        try await client().logIn(email: email, password: password)
    }

    func logIn(with credential: ProviderCredential) async throws(APIError) -> UserSession {
        try await client().logIn(with: credential)
    }

    func authProviders() async throws(APIError) -> AuthProviders {
        try await client().authProviders()
    }

    func signUp(_ request: SignUpRequest) async throws(APIError) -> UserSession {
        try await client().signUp(request)
    }

    func logOut() async throws(APIError) {
        try await client().logOut()
    }

    func publicUser(key: String) async throws(APIError) -> PublicUser {
        try await client().publicUser(key: key)
    }

    func locations(_ query: LocationQuery) async throws(APIError) -> StudentLocationList {
        try await client().locations(query)
    }

    func locations(ofUser key: String) async throws(APIError) -> [StudentInformation] {
        try await client().locations(ofUser: key)
    }

    func createLocation(_ location: NewStudentLocation) async throws(APIError) -> CreatedLocation {
        try await client().createLocation(location)
    }

    func updateLocation(objectId: String, with location: NewStudentLocation) async throws(APIError) -> UpdatedLocation {
        try await client().updateLocation(objectId: objectId, with: location)
    }

    func deleteLocation(objectId: String) async throws(APIError) {
        try await client().deleteLocation(objectId: objectId)
    }

    func deleteAccount(key: String, password: String?) async throws(APIError) -> AccountDeletion {
        try await client().deleteAccount(key: key, password: password)
    }

    func exportAccount(key: String) async throws(APIError) -> AccountExport {
        try await client().exportAccount(key: key)
    }

    func hideLocation(objectId: String, reason: String) async throws(APIError) {
        try await client().hideLocation(objectId: objectId, reason: reason)
    }

    func unhideLocation(objectId: String) async throws(APIError) {
        try await client().unhideLocation(objectId: objectId)
    }
}

/// The live channel of the connection once it is made (the built-in server started), with the
/// client's current session.
extension PendingClient: LiveChannel {
    func liveEvents(where whereClause: JSONValue?) -> AsyncStream<LiveEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self)
        let task = Task {
            guard let client = await connection.value?.client else {
                continuation.yield(.refused("cannot reach \(name)"))
                continuation.finish()
                return
            }
            for await event in client.liveEvents(where: whereClause) { continuation.yield(event) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
