import Foundation
import Geo
import OnTheMapModels
import ServerTestSupport
import TerminalUI
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `login` → `whoami` → `post --yes` → `list` → `post` (overwrite) → `logout` → `whoami`, each
/// the real binary against a real server, with the state file checked on the way.
@Suite struct SessionCommandsTests {
    typealias Run = ListCommandTests.Run

    static func run(_ arguments: [String], home: URL, input: String = "") async throws -> Run {
        try await ListCommandTests.run(arguments, dataHome: home, input: input)
    }

    @Test func logInOnceThenScriptTheRest() async throws {
        let server = try await TestServer.start()
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let password = "correct horse battery"
        let key = try await server.addUser(email: "ada@example.com", password: password, firstName: "Ada", lastName: "Lovelace")
        let url = server.baseURL.absoluteString
        func onthemap(_ arguments: [String], input: String = "") async throws -> Run {
            try await Self.run(arguments + ["--server", url], home: home, input: input)
        }

        // Before logging in: exit 3.
        #expect(try await onthemap(["whoami"]).status == 3)
        let wrong = try await onthemap(["login", "--email", "ada@example.com", "--password-stdin"], input: "nope nope\n")
        #expect(wrong.status == 4, "\(wrong.stderr)")

        let login = try await onthemap(["login", "--email", "ada@example.com", "--password-stdin"], input: password + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("Ada Lovelace"))

        // The state file: 0600, the session and nothing of the password.
        let file = home.appendingPathComponent("state/onthemap/session.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains(password) && !text.contains("horse"))
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Set(stored.keys) == ["server", "accountKey", "sessionID", "expiration", "provider"])
        #expect(stored["accountKey"] as? String == key)

        let whoami = try await onthemap(["whoami", "--json"])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        let identity = try #require(try JSONSerialization.jsonObject(with: Data(whoami.stdout.utf8)) as? [String: Any])
        #expect(identity["name"] as? String == "Ada Lovelace")
        #expect(identity["key"] as? String == key)
        #expect(identity["email"] as? String == "ada@example.com")

        // Without --yes and without a terminal, nothing is posted; the app's preview map of the
        // place (`PostingScreen.placeMap` at its size) comes before the question.
        let unasked = try await onthemap(["post", "--place", "Lisbon, Portugal", "--link", "ada.example.com"])
        #expect(unasked.status == 4)
        let lisbon = try OfflineGeocoder().resolve("Lisbon, Portugal").best
        let size = PostingScreen.previewMapSize
        let preview = PostingScreen.placeMap(lisbon, width: size.width, height: size.height).lines.map {
            $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        #expect(preview.contains { $0.contains("Lisbon") })
        #expect(unasked.stderr.contains("\n" + preview.joined(separator: "\n") + "\n"), "\(unasked.stderr)")
        #expect(unasked.stderr.hasSuffix("not posted: no terminal to ask on; pass --yes to post without asking.\n"))
        #expect(try await onthemap(["post", "--place", "Lisbon", "--link", "javascript:alert(1)", "--yes"]).status == 4)

        let post = try await onthemap(["post", "--place", "Lisbon, Portugal", "--link", "ada.example.com", "--yes", "--json"])
        #expect(post.status == 0, "\(post.stderr)")
        let posted = try #require(try JSONSerialization.jsonObject(with: Data(post.stdout.utf8)) as? [String: Any])
        #expect(posted["overwrote"] as? Bool == false)
        #expect(posted["mediaURL"] as? String == "https://ada.example.com")
        let objectId = try #require(posted["objectId"] as? String)

        let list = try await onthemap(["list", "--format", "json", "--limit", "5"])
        let rows = try JSONDecoder().decode([StudentInformation].self, from: Data(list.stdout.utf8))
        #expect(rows.first?.objectId == objectId)
        #expect(rows.first?.mapString == "Lisbon, Portugal")

        let again = try await onthemap(["post", "--place", "Porto, Portugal", "--link", "https://ada.example.org", "--yes"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.hasPrefix("Overwrote your existing row \(objectId)"))
        #expect(try await server.locationCount() == 1)
        // Accessible mode: one sentence, no arrow, the id last.
        let spoken = try await onthemap(
            ["post", "--place", "Porto, Portugal", "--link", "https://ada.example.org", "--yes", "--accessible"])
        #expect(spoken.stdout.hasPrefix("Overwrote your existing row: Porto"), "\(spoken.stdout)")
        #expect(spoken.stdout.hasSuffix(", with the link https://ada.example.org. Row \(objectId).\n"))

        let logout = try await onthemap(["logout"])
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let after = try await onthemap(["whoami"])
        #expect(after.status == 3)
        #expect(after.stderr.hasPrefix("onthemap: not logged in to \(url)"))
        await server.stop()
    }

    @Test func aSessionTheServerForgotIsExitThree() async throws {
        let server = try await TestServer.start()
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try await server.addUser(email: "bob@example.com", password: "correct horse")
        let url = server.baseURL.absoluteString
        let login = try await Self.run(
            ["login", "--email", "bob@example.com", "--password-stdin", "--server", url], home: home, input: "correct horse\n")
        #expect(login.status == 0, "\(login.stderr)")
        // Forged: a session id the server never issued, in an otherwise valid file.
        let file = home.appendingPathComponent("state/onthemap/session.json")
        var stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        stored["sessionID"] = "not-a-session"
        try JSONSerialization.data(withJSONObject: stored).write(to: file)
        #expect(try await Self.run(["whoami", "--server", url], home: home).status == 3)
        let post = try await Self.run(["post", "--place", "Lisbon", "--link", "a.example", "--yes", "--server", url], home: home)
        #expect(post.status == 3, "\(post.stderr)")
        await server.stop()
    }
}
