import Foundation
import GRDB
import OnTheMapServer
import ServerAdmin
import ServerStorage
import ServerTestSupport
import Testing

/// One canonical e-mail form on both stores (Docs/Security.md, "One e-mail, one account").
@Suite struct EmailKeyTests {
    static func signUp(_ server: TestServer, _ email: String) async throws -> RawHTTP.Reply {
        let body = try JSONSerialization.data(withJSONObject: [
            "email": email, "password": "correct horse", "first_name": "A", "last_name": "B",
        ])
        return try await RawHTTP.send(
            "POST", URL(string: server.baseURL.absoluteString + "/v1/users")!, headers: ["Content-Type": "application/json"],
            body: body)
    }

    static func logIn(_ server: TestServer, _ email: String) async throws -> String? {
        let body = try JSONSerialization.data(withJSONObject: ["udacity": ["username": email, "password": "correct horse"]])
        let reply = try await RawHTTP.send(
            "POST", URL(string: server.baseURL.absoluteString + "/v1/session")!, headers: ["Content-Type": "application/json"],
            body: body)
        return ((reply.json(prefixed: true) as? [String: Any])?["account"] as? [String: Any])?["key"] as? String
    }

    @Test(arguments: TestBackend.available)
    func lookAlikesAreTheSameAccount(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        let alice = try await server.addUser(email: "alice@example.com")
        let eve = try await server.addUser(email: "\u{E9}ve@example.com")  // NFC é
        for lookAlike in ["al\u{130}ce@example.com", "\u{FF41}lice@example.com", "ALICE@EXAMPLE.COM", "e\u{301}ve@example.com"] {
            let reply = try await Self.signUp(server, lookAlike)
            #expect(reply.status == 409, "\(lookAlike): \(reply.text)")
        }
        #expect(try await Self.logIn(server, "\u{FF41}lice@example.com") == alice)
        #expect(try await Self.logIn(server, "e\u{301}ve@example.com") == eve)
        // The operator's command agrees.
        await #expect(throws: ServerDatabase.AccountError.self) {
            try await server.addUser(email: "al\u{130}ce@example.com")
        }
        #expect(#"\#(EmailKey.canonical("Stra\u{DF}e@X"))"# == "strasse@x")
    }

    /// Addresses and names with a character that prints as nothing are refused, on the sign-up
    /// and by the operator's command (was: accepted, printing the same as the real account).
    @Test(arguments: TestBackend.available)
    func invisibleCharactersAreRefused(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        _ = try await server.addUser(email: "alice@example.com")
        let invisible: [Unicode.Scalar] = ["\u{200B}", "\u{200C}", "\u{200D}", "\u{AD}", "\u{2060}", "\u{34F}", "\u{FE0F}", "\u{3164}"]
        for scalar in invisible {
            let email = "ali\(scalar)ce@example.com"
            let reply = try await Self.signUp(server, email)
            #expect(reply.status == 400, "U+\(String(scalar.value, radix: 16)): \(reply.text)")
            #expect(reply.text.contains("invisible"), "\(reply.text)")
            await #expect(throws: ServerDatabase.AccountError.self) { try await server.addUser(email: email) }
            await #expect(throws: ServerDatabase.AccountError.self) {
                try await server.withDatabase {
                    try await $0.addUser(
                        email: "bob\(scalar.value)@example.com", password: "correct horse", firstName: "Bo\(scalar)b",
                        lastName: "B")
                }
            }
        }
        // A name too, on the sign-up.
        let body = try JSONSerialization.data(withJSONObject: [
            "email": "carol@example.com", "password": "correct horse", "first_name": "Al\u{200B}ice", "last_name": "B",
        ])
        let named = try await RawHTTP.send(
            "POST", URL(string: server.baseURL.absoluteString + "/v1/users")!, headers: ["Content-Type": "application/json"],
            body: body)
        #expect(named.status == 400 && named.text.contains("first name must not contain invisible"), "\(named.text)")
        // What prints as itself is fine: accents, other scripts, an emoji without a selector.
        for email in ["\u{E9}lodie@example.com", "\u{5F20}\u{4F1F}@example.com", "\u{1F600}@example.com"] {
            #expect(try await Self.signUp(server, email).status == 201, "\(email)")
        }
    }

    @Test(arguments: TestBackend.available)
    func aMigrationReportsExistingCollisionsAndMergesNothing(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend)
        defer { Task { await server.stop() } }
        let alice = try await server.addUser(email: "alice@example.com")
        // An account made before the canonical form: a look-alike address (full-width; PostgreSQL's
        // old lower(email) index already folded alİce@ onto alice@), and no key.
        let sql = """
            INSERT INTO account (key, email, password_hash, first_name, last_name, created_at)
            SELECT '9999999999', '\u{FF41}lice@example.com', password_hash, 'E', 'V', '2030-01-01T00:00:00.000Z'
            FROM account WHERE key = '\(alice)'
            """
        switch backend {
        case .sqlite:
            let queue = try DatabaseQueue(path: server.configuration.databasePath)
            try await queue.write { try $0.execute(sql: sql) }
            try queue.close()
        case .postgres:
            try await TestBackend.executePostgres(sql, on: server.configuration.databasePath)
        }
        // The next open of the database reports it, and keeps both accounts as they are.
        let lines = ObservabilityTests.LogCapture()
        let again = try await TestServer.start(logger: lines.logger()) { $0.databasePath = server.configuration.databasePath }
        await again.server.stop()
        try? FileManager.default.removeItem(at: again.directory)
        #expect(lines.text.contains("e-mail collision"), "\(lines.text.suffix(400))")
        #expect(lines.text.contains(alice) && lines.text.contains("9999999999"))
        #expect(try await Self.logIn(server, "alice@example.com") == alice)
        #expect(try await Self.logIn(server, "ALICE@example.com") == alice)
        #expect(try await Self.logIn(server, "\u{FF41}lice@example.com") == "9999999999")
        #expect(try await Self.logIn(server, "al\u{130}ce@example.com") == alice)
        #expect(try await server.withDatabase { try await $0.users().count } == 2)
    }
}
