import AppTestSupport
import Foundation
import StandIn
import OnTheMapModels
import ServerTestSupport
import Testing

@testable import APIClient

/// Discovery of the sign-up policy and the refusals of a sign-up, against a stand-in that answers
/// as issue 9 describes the server (which is written in parallel), and against today's real server.
@Suite struct SignUpPolicyClientTests {
    static let prefix = ")]}'\n"

    func client(_ server: StandInServer, _ dialect: APIDialect = .v1) -> OnTheMapClient {
        OnTheMapClient(configuration: APIConfiguration(baseURL: server.baseURL, dialect: dialect, timeout: TestServer.clientTimeout))
    }

    @Test(arguments: APIDialect.allCases)
    func providersAreReadBehindThePrefixOnEachDialect(_ dialect: APIDialect) async throws {
        let server = try StandInServer.answering { target in
            target.hasSuffix("/auth/providers")
                ? (200, Self.prefix + #"{"providers":[{"type":"device","signup":null},{"type":"password","signup":"invite"}]}"#)
                : (404, "{}")
        }
        defer { server.stop() }
        let providers = try await client(server, dialect).authProviders()
        #expect(providers.signUpPolicy == .invite)
        #expect(server.requests.map(\.target) == [dialect == .v1 ? "/v1/auth/providers" : "/api/auth/providers"])
    }

    @Test func aServerWithoutTheEndpointIsPasswordAndOpen() async throws {
        for status in [404, 405, 501] {
            let server = try StandInServer.answering { _ in (status, "<html>Not Found</html>") }
            defer { server.stop() }
            #expect(try await client(server).authProviders() == .originalServices)
        }
        // The original services' kind of answer, from today's real server too.
        let real = try await TestServer.start()
        defer { Task { await real.stop() } }
        let api = OnTheMapClient(configuration: APIConfiguration(baseURL: real.baseURL, timeout: TestServer.clientTimeout))
        #expect(try await api.authProviders().signUpPolicy != nil)
    }

    func refusal(_ status: Int, headers: [String: String] = [:], _ body: String) async throws -> APIError? {
        let server = try StandInServer { _ in .init(status: status, headers: headers, Self.prefix + body) }
        defer { server.stop() }
        do {
            _ = try await client(server).signUp(
                SignUpRequest(email: "a@b.c", password: "long enough", firstName: "A", lastName: "B", invite: "CODE"))
            return nil
        } catch {
            let sent = try JSONDecoder().decode(SignUpRequest.self, from: try #require(server.requests.first?.body))
            #expect(sent.invite == "CODE")
            return error
        }
    }

    @Test func refusedSignUpsSayWhy() async throws {
        #expect(
            try await refusal(403, #"{"status":403,"error":"Invalid invite code.","parameter":"invite"}"#)
                == .inviteRejected(message: "Invalid invite code."))
        #expect(
            try await refusal(403, #"{"status":403,"error":"Sign-up is closed."}"#)
                == .signUpClosed(message: "Sign-up is closed."))
        #expect(
            try await refusal(429, headers: ["Retry-After": "1800"], #"{"status":429,"error":"Too many sign-ups."}"#)
                == .tooManyRequests(retryAfter: 1800, message: "Too many sign-ups."))
        #expect(
            try await refusal(409, #"{"status":409,"error":"Taken.","parameter":"email"}"#)
                == .refused(status: 409, message: "Taken."))
    }

    @Test func retryAfterInWords() {
        #expect(RetryDelay.seconds(header: " 42 ") == 42)
        #expect(RetryDelay.seconds(header: "Wed, 21 Oct 2015 07:28:00 GMT") == nil)
        #expect(RetryDelay.seconds(header: "99999999999") == 86_400)
        #expect(RetryDelay.text(42) == "in 42 seconds")
        #expect(RetryDelay.text(890) == "in 15 minutes")
        #expect(RetryDelay.text(3 * 3600) == "in 3 hours")
        #expect(RetryDelay.text(nil) == "later")
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", false), ("http://127.255.0.9", false), ("http://localhost:80", false),
        ("http://LocalHost.:80", false), ("http://[::1]:8080", false), ("http://[::ffff:127.0.0.1]:8080", false),
        ("https://class.example.org", false), ("http://class.example.org", true), ("http://10.0.0.5:8080", true),
        ("http://127.0.0.1.example.org", true), ("http://[::2]:8080", true), ("http://128.0.0.1", true),
        ("http://localhost.example.org", true),
    ])
    func plainHTTPWarning(_ url: String, _ warns: Bool) throws {
        #expect((PlainHTTPWarning.message(for: try #require(URL(string: url))) != nil) == warns)
    }
}
