import Foundation
import OnTheMapModels
import ServerTestSupport
import StandIn
import Testing

@testable import APIClient

/// "Your data is yours" and moderation, from the client's side (Docs/Access.md): the requests it
/// sends and how it reads the answers and refusals, against a stand-in that answers as Access.md
/// says (the server side is written at the same time).
@Suite struct AccessClientTests {
    static let session = UserSession(accountKey: "u1", sessionID: "sid-1", expiration: "")

    func client(_ server: StandInServer, _ dialect: APIDialect = .v1) -> OnTheMapClient {
        let client = OnTheMapClient(configuration: APIConfiguration(baseURL: server.baseURL, dialect: dialect, timeout: TestServer.clientTimeout))
        client.resume(Self.session)
        return client
    }

    func json(_ data: Data) -> JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: data) }

    @Test(arguments: APIDialect.allCases)
    func deletesOwnRowWithTheSession(_ dialect: APIDialect) async throws {
        let server = try StandInServer { _ in .init(status: 200, "{}") }
        defer { server.stop() }
        try await client(server, dialect).deleteLocation(objectId: "a b/c")
        let request = try #require(server.requests.first)
        #expect(request.method == "DELETE")
        let collection = dialect == .v1 ? RequestPath.Locations.v1 : .parse
        #expect(request.target == collection.object("a%20b%2Fc"))
        #expect(request.headers["authorization"] == "Bearer sid-1")
    }

    @Test func rowLimitAndNotYoursAreSentencesOfTheirOwn() async throws {
        let limit = "This account already has 5 locations on the map, the most one account may have. Update or delete one of them."
        let server = try StandInServer { request in
            request.method == "POST"
                ? .init(status: 403, #"{"code":119,"error":"\#(limit)"}"#)
                : .init(status: 403, #"{"code":119,"error":"That location is not yours"}"#)
        }
        defer { server.stop() }
        let api = client(server)
        let new = NewStudentLocation(
            uniqueKey: "u1", firstName: "A", lastName: "B", mapString: "Oslo", mediaURL: "", latitude: 1, longitude: 2)
        await #expect(throws: APIError.notAllowed(message: limit)) { _ = try await api.createLocation(new) }
        do {
            try await api.deleteLocation(objectId: "x")
            Issue.record("a refused delete must throw")
        } catch {
            #expect(error == .notAllowed(message: "That location is not yours"))
            #expect(error.userMessage == "That location is not yours.")
        }
        // A 403 without the code stays what it was (the posting form takes it as an ended session).
        let plain = try StandInServer { _ in .init(status: 403, #"{"code":209,"error":"no session"}"#) }
        defer { plain.stop() }
        await #expect(throws: APIError.refused(status: 403, message: "no session")) {
            try await client(plain).deleteLocation(objectId: "x")
        }
    }

    @Test func tooManyChangesCarriesRetryAfterAndTheServersSentence() async throws {
        let text = "Too many changes from this account. Try again in 12 seconds."
        let server = try StandInServer { _ in
            .init(status: 429, headers: ["Retry-After": "12"], #"{"code":155,"error":"\#(text)"}"#)
        }
        defer { server.stop() }
        do {
            try await client(server).deleteLocation(objectId: "x")
            Issue.record("429 must throw")
        } catch {
            #expect(error == .tooManyChanges(retryAfter: 12, message: text))
            #expect(error.userMessage == text)
        }
        // An empty message still reads as a sentence, with the delay in words.
        #expect(APIError.tooManyChanges(retryAfter: 12, message: " ").userMessage
            == "Too many changes from this account. Try again in 12 seconds.")
        #expect(APIError.notAllowed(message: "").userMessage == "This account may not do that.")
    }

    @Test func hideSendsTheReasonAndUnhideAnEmptyBody() async throws {
        let server = try StandInServer { _ in .init(status: 200, #"{"updatedAt":"2026-01-01T00:00:00.000Z"}"#) }
        defer { server.stop() }
        // Moderation is /v1 only, whichever dialect the client speaks.
        let api = client(server, .legacy)
        try await api.hideLocation(objectId: "r1", reason: "spam \"link\"")
        try await api.unhideLocation(objectId: "r1")
        let requests = server.requests
        #expect(requests.map(\.method) == ["POST", "POST"])
        #expect(requests.map(\.target) == ["/v1/StudentLocation/r1/hide", "/v1/StudentLocation/r1/unhide"])
        #expect(json(requests[0].body) == .object(["reason": .string("spam \"link\"")]))
        #expect(requests[0].headers["content-type"] == "application/json")
        #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer sid-1" })
    }

    @Test(arguments: APIDialect.allCases)
    func deleteAccountSendsThePasswordAndReadsTheCounts(_ dialect: APIDialect) async throws {
        let prefix = dialect == .v1 ? "" : ")]}'\n"
        let server = try StandInServer { request in
            json(request.body)?["password"]?.stringValue == "right"
                ? .init(status: 200, prefix + #"{"deleted":{"locations":3,"sessions":2}}"#)
                : .init(status: 403, prefix + #"{"status":403,"error":"Account not found or invalid credentials."}"#)
        }
        defer { server.stop() }
        let api = client(server, dialect)
        let deletion = try await api.deleteAccount(key: "u1", password: "right")
        #expect(deletion == AccountDeletion(locations: 3, sessions: 2))
        let accounts = dialect == .v1 ? RequestPath.Accounts.v1 : .api
        #expect(server.requests.first?.target == accounts.user("u1"))
        #expect(server.requests.first?.method == "DELETE")
        #expect(server.requests.first?.headers["authorization"] == "Bearer sid-1")
        await #expect(throws: APIError.invalidCredentials(message: "Account not found or invalid credentials.")) {
            _ = try await api.deleteAccount(key: "u1", password: "wrong")
        }
        // No password (an account made by a provider login): an empty object.
        _ = try? await api.deleteAccount(key: "u1", password: nil)
        #expect(server.requests.last.map { json($0.body) } == .object([:]))
    }

    @Test(arguments: APIDialect.allCases)
    func exportKeepsEveryFieldAndMarksHiddenRows(_ dialect: APIDialect) async throws {
        let prefix = dialect == .v1 ? "" : ")]}'\n"
        let body = prefix + #"{"account":{"key":"u1","email":"a@b.c","role":"student"},"locations":[{"objectId":"r1","uniqueKey":"u1","latitude":1,"longitude":2,"hidden":true,"hiddenReason":"spam"},{"objectId":"r2","uniqueKey":"u1","latitude":3,"longitude":4}]}"#
        let server = try StandInServer { _ in .init(status: 200, body) }
        defer { server.stop() }
        let export = try await client(server, dialect).exportAccount(key: "u1")
        let accounts = dialect == .v1 ? RequestPath.Accounts.v1 : .api
        #expect(server.requests.first?.target == accounts.export("u1"))
        #expect(export.account["email"]?.stringValue == "a@b.c")
        #expect(export.rows.map(\.objectId) == ["r1", "r2"])
        #expect(export.rows.map(\.hidden) == [true, false])
        #expect(export.rows.first?.hiddenReason == "spam")
    }

    @Test func roleComesFromTheOwnUserAnswer() async throws {
        let server = try StandInServer { request in
            request.headers["authorization"] == "Bearer sid-1"
                ? .init(status: 200, #"{"key":"u1","first_name":"A","last_name":"B","email":{"address":"a@b.c","_verified":true},"role":"moderator"}"#)
                : .init(status: 200, #"{"key":"u1","first_name":"A","last_name":"B"}"#)
        }
        defer { server.stop() }
        #expect(try await client(server).publicUser(key: "u1").isModerator)
        let anonymous = OnTheMapClient(configuration: APIConfiguration(baseURL: server.baseURL, timeout: TestServer.clientTimeout))
        let user = try await anonymous.publicUser(key: "u1")
        #expect(user.role == nil && !user.isModerator)
    }

    @Test func theListIsSentWithTheSessionAndHiddenRowsAreMarked() async throws {
        let server = try StandInServer { _ in
            .init(status: 200, #"{"results":[{"objectId":"r1","latitude":1,"longitude":2,"hidden":true,"hiddenReason":"off-topic"},{"objectId":"r2","latitude":1,"longitude":2,"hidden":"yes"}]}"#)
        }
        defer { server.stop() }
        let list = try await client(server).locations(LocationQuery())
        #expect(server.requests.first?.headers["authorization"] == "Bearer sid-1")
        #expect(list.locations.map(\.hidden) == [true, false])
        #expect(list.locations.first?.hiddenReason == "off-topic")
        #expect(list.skipped == 0)
    }
}
