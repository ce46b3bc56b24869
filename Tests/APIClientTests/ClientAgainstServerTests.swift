import BoundedHTTP
import Foundation
import OnTheMapModels
import ServerTestSupport
import StandIn
import Testing

@testable import APIClient

/// The live client against a real `onthemap-server` on loopback, in both dialects.
@Suite struct ClientAgainstServerTests {
    static let password = "correct horse"

    func client(_ server: TestServer, _ dialect: APIDialect) -> OnTheMapClient {
        OnTheMapClient(configuration: APIConfiguration(baseURL: server.baseURL, dialect: dialect, timeout: TestServer.clientTimeout))
    }

    func location(key: String, place: String = "Mountain View, CA") -> NewStudentLocation {
        NewStudentLocation(
            uniqueKey: key, firstName: "Ada", lastName: "Lovelace", mapString: place, mediaURL: "https://example.com/ada",
            latitude: 37.386052, longitude: -122.083851)
    }

    @Test(arguments: TestBackend.available, APIDialect.allCases)
    func logsInReadsUserPostsUpdatesAndLogsOut(backend: TestBackend, dialect: APIDialect) async throws {
        let server = try await TestServer.start(backend: backend, seedDemo: true)
        defer { Task { await server.stop() } }
        let key = try await server.addUser(email: "ada@example.com", password: Self.password, firstName: "Ada", lastName: "Lovelace")
        let api = client(server, dialect)

        let session = try await api.logIn(email: "ada@example.com", password: Self.password)
        #expect(session.accountKey == key)
        #expect(session.sessionID.count >= 22)

        let user = try await api.publicUser(key: key)
        #expect(user.firstName == "Ada")
        #expect(user.lastName == "Lovelace")

        let before = try await api.locations(LocationQuery(limit: 100))
        #expect(before.locations.count + before.skipped == 100)
        #expect(before.skipped == 0, "the demo class's two unusable rows sit below the newest hundred")
        let dates = before.locations.compactMap(\.updatedAt)
        #expect(dates == dates.sorted(by: >), "newest first")

        let created = try await api.createLocation(location(key: key))
        #expect(created.objectId.count == 10)
        let top = try await api.locations(LocationQuery(limit: 1))
        #expect(top.locations.first?.objectId == created.objectId)

        let mine = try await api.locations(ofUser: key)
        #expect(mine.map(\.objectId) == [created.objectId])

        let updated = try await api.updateLocation(objectId: created.objectId, with: location(key: key, place: "Cupertino, CA"))
        #expect(WireDate.date(from: updated.updatedAt) != nil)
        #expect(try await api.locations(ofUser: key).first?.mapString == "Cupertino, CA")

        try await api.logOut()
        #expect(api.currentSession == nil)
        // The old session is gone on the server too: a write with it is refused.
        let stale = client(server, dialect)
        _ = try await stale.logIn(email: "ada@example.com", password: Self.password)
        try await stale.logOut()
        await #expect(throws: APIError.self) { try await stale.createLocation(location(key: key)) }
    }

    @Test(arguments: APIDialect.allCases)
    func wrongPasswordIsInvalidCredentials(dialect: APIDialect) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        _ = try await server.addUser(email: "ada@example.com", password: Self.password)
        await #expect(throws: APIError.invalidCredentials(message: "Account not found or invalid credentials.")) {
            try await client(server, dialect).logIn(email: "ada@example.com", password: "wrong password")
        }
        await #expect(throws: APIError.invalidCredentials(message: "Account not found or invalid credentials.")) {
            try await client(server, dialect).logIn(email: "nobody@example.com", password: Self.password)
        }
    }

    @Test(arguments: APIDialect.allCases)
    func writesForAnotherAccountAreRefused(dialect: APIDialect) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com", password: Self.password)
        let bobKey = try await server.addUser(email: "bob@example.com", password: Self.password)
        let ada = client(server, dialect)
        _ = try await ada.logIn(email: "ada@example.com", password: Self.password)
        let row = try await ada.createLocation(location(key: adaKey))

        let bob = client(server, dialect)
        _ = try await bob.logIn(email: "bob@example.com", password: Self.password)
        // 403 code 119 (Docs/Access.md): not yours, a sentence of its own.
        await #expect(throws: APIError.notAllowed(message: "You can only post locations for your own account (uniqueKey \(bobKey)).")) {
            try await bob.createLocation(location(key: adaKey))
        }
        await #expect(throws: APIError.notAllowed(message: "This location belongs to another account.")) {
            try await bob.updateLocation(objectId: row.objectId, with: location(key: bobKey, place: "Hijacked"))
        }
        #expect(try await ada.locations(ofUser: adaKey).first?.mapString == "Mountain View, CA")
        await #expect(throws: APIError.self) {
            try await client(server, dialect).createLocation(location(key: adaKey))
        }
    }

    /// DELETE of a row, on today's server: the owner's goes, another's is `notAllowed` with the
    /// server's sentence, and without a session nothing is deleted.
    @Test(arguments: APIDialect.allCases)
    func onlyTheOwnerDeletesARow(dialect: APIDialect) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com", password: Self.password)
        _ = try await server.addUser(email: "bob@example.com", password: Self.password)
        let ada = client(server, dialect)
        _ = try await ada.logIn(email: "ada@example.com", password: Self.password)
        let first = try await ada.createLocation(location(key: adaKey))
        let second = try await ada.createLocation(location(key: adaKey, place: "Lisbon"))
        let bob = client(server, dialect)
        _ = try await bob.logIn(email: "bob@example.com", password: Self.password)
        await #expect(throws: APIError.notAllowed(message: "This location belongs to another account.")) {
            try await bob.deleteLocation(objectId: first.objectId)
        }
        await #expect(throws: APIError.self) { try await client(server, dialect).deleteLocation(objectId: first.objectId) }
        try await ada.deleteLocation(objectId: first.objectId)
        #expect(try await ada.locations(ofUser: adaKey).map(\.objectId) == [second.objectId])
    }

    @Test(arguments: APIDialect.allCases)
    func signUpLogsIn(dialect: APIDialect) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let api = client(server, dialect)
        let session = try await api.signUp(SignUpRequest(email: "new@example.com", password: "long enough", firstName: "New", lastName: "Person"))
        #expect(api.currentSession == session)
        #expect(try await api.publicUser(key: session.accountKey).firstName == "New")
        await #expect(throws: APIError.refused(status: 409, message: "An account with this email already exists.")) {
            try await client(server, dialect).signUp(SignUpRequest(email: "NEW@example.com", password: "long enough", firstName: "A", lastName: "B"))
        }
    }

    @Test func recentLocationsFillsPastSkippedRows() async throws {
        let server = try await TestServer.start(seedDemo: true)
        defer { Task { await server.stop() } }
        // The demo class's two unusable rows are a month old: among the newest 150, not the newest 100.
        let list = try await client(server, .v1).recentLocations(count: 150)
        #expect(list.locations.count == 150)
        #expect(list.skipped == 2)
        #expect(Set(list.locations.map(\.objectId)).count == 150)
    }

    @Test func unreachableServerSaysSo() async throws {
        // A port that was just free: nothing listens there.
        let server = try await TestServer.start()
        let url = server.baseURL
        await server.stop()
        let api = OnTheMapClient(configuration: APIConfiguration(baseURL: url))
        await #expect(throws: APIError.cannotReachServer(server: "127.0.0.1:\(url.port ?? 0)")) {
            try await api.locations(LocationQuery())
        }
        await #expect(throws: APIError.cannotReachServer(server: "127.0.0.1:\(url.port ?? 0)")) {
            try await api.logIn(email: "a@b.c", password: "x")
        }
    }

    /// A failed TLS handshake or a certificate not accepted (the transport's `.insecure`, tested
    /// against a real TLS server in `CurlExchangeTests`) tells the user there is no secure
    /// connection, with the transport's words, not that nothing answered.
    @Test func noSecureConnectionIsSaidAsSuch() async throws {
        struct Untrusted: HTTPExchanging {
            func exchange(_ request: HTTPRequest, maxBytes: Int, deadline: Duration) async throws(HTTPFailure)
                -> HTTPAnswer
            {
                throw .insecure("SSL certificate problem: self-signed certificate")
            }
        }
        let api = OnTheMapClient(
            configuration: APIConfiguration(baseURL: URL(string: "https://class.example:8443")!), http: Untrusted())
        let expected = APIError.insecureServer(
            server: "class.example:8443", detail: "SSL certificate problem: self-signed certificate")
        await #expect(throws: expected) { try await api.locations(LocationQuery()) }
        await #expect(throws: expected) { try await api.logIn(email: "a@b.c", password: "x") }
        #expect(expected.userMessage.hasPrefix("No secure connection to the server at class.example:8443 (SSL certificate"))
    }

    /// Something answers at the address, but not in HTTP: the user is told so (and, for a TLS
    /// server asked over http://, that it speaks https://), not that nothing answered.
    @Test func anAnswerThatIsNotHTTPIsSaidAsSuch() async throws {
        let tls = try RawHTTPServer(reply: [0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x32])
        defer { tls.stop() }
        let api = OnTheMapClient(configuration: APIConfiguration(baseURL: URL(string: "http://127.0.0.1:\(tls.port)")!))
        let expected = APIError.malformedAnswer(
            server: "127.0.0.1:\(tls.port)", detail: "a TLS answer: the server speaks https://")
        await #expect(throws: expected) { try await api.locations(LocationQuery()) }
        await #expect(throws: expected) { try await api.logIn(email: "a@b.c", password: "x") }
        #expect(
            expected.userMessage
                == "The server at 127.0.0.1:\(tls.port) did not answer as an HTTP server should (a TLS answer: the "
                + "server speaks https://). Check the address: it may be another program's, or need https://.")
    }

    @Test func silentServerTimesOut() async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let api = OnTheMapClient(
            configuration: APIConfiguration(baseURL: URL(string: "http://127.0.0.1:\(listener.port)")!, timeout: 1))
        await #expect(throws: APIError.timedOut(server: "127.0.0.1:\(listener.port)")) {
            try await api.locations(LocationQuery())
        }
    }

    @Test func parseKeysAreSentSoAKeyedServerAnswers() async throws {
        let server = try await TestServer.start(
            parseKeys: (APIConfiguration.seedParseApplicationID, APIConfiguration.seedParseRESTAPIKey), seedDemo: true)
        defer { Task { await server.stop() } }
        #expect(try await client(server, .legacy).locations(LocationQuery(limit: 5)).locations.count == 5)
        let keyless = OnTheMapClient(
            configuration: APIConfiguration(
                baseURL: server.baseURL, dialect: .legacy, parseApplicationID: nil, parseRESTAPIKey: nil))
        await #expect(throws: APIError.refused(status: 403, message: "unauthorized")) {
            try await keyless.locations(LocationQuery(limit: 5))
        }
        // The keys guard the Parse paths only: /v1 never took them.
        let keylessV1 = OnTheMapClient(
            configuration: APIConfiguration(baseURL: server.baseURL, dialect: .v1, parseApplicationID: nil, parseRESTAPIKey: nil))
        #expect(try await keylessV1.locations(LocationQuery(limit: 5)).locations.count == 5)
    }
}
