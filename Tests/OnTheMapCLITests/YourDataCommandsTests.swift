import APIClient
import Foundation
import OnTheMapModels
import ServerTestSupport
import StandIn
import Testing

/// `onthemap delete`, `onthemap account delete` and `onthemap export`, the real binary: `delete`
/// against a real server (which has owner-only DELETE), the account endpoints against a stand-in
/// that answers as Docs/Access.md says (the server side is written at the same time).
@Suite struct YourDataCommandsTests {
    typealias Run = ListCommandTests.Run

    static func run(_ arguments: [String], home: URL, input: String = "") async throws -> Run {
        try await ListCommandTests.run(arguments, dataHome: home, input: input)
    }

    @Test func deleteTakesTheOnlyRowOrAsksWhichOrAll() async throws {
        let server = try await TestServer.start()
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let password = "correct horse battery"
        let key = try await server.addUser(email: "ada@example.com", password: password, firstName: "Ada", lastName: "L")
        let url = server.baseURL.absoluteString
        func onthemap(_ arguments: [String], input: String = "") async throws -> Run {
            try await Self.run(arguments + ["--server", url], home: home, input: input)
        }
        #expect(try await onthemap(["delete", "--yes"]).status == 3, "not logged in")
        let login = try await onthemap(["login", "--email", "ada@example.com", "--password-stdin"], input: password + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(try await onthemap(["delete", "--yes"]).stderr.contains("no location"))

        // Three rows of Ada's, and one of someone else's that must survive everything below.
        let client = OnTheMapClient(configuration: APIConfiguration(baseURL: server.baseURL, timeout: TestServer.clientTimeout))
        _ = try await client.logIn(email: "ada@example.com", password: password)
        var ids: [String] = []
        for place in ["Lisbon", "Porto", "Faro"] {
            let row = NewStudentLocation(
                uniqueKey: key, firstName: "Ada", lastName: "L", mapString: place, mediaURL: "https://a.example",
                latitude: 38, longitude: -9)
            ids.append(try await client.createLocation(row).objectId)
        }
        _ = try await server.addUser(email: "bob@example.com", password: password)
        let bob = OnTheMapClient(configuration: APIConfiguration(baseURL: server.baseURL, timeout: TestServer.clientTimeout))
        let bobSession = try await bob.logIn(email: "bob@example.com", password: password)
        let bobRow = try await bob.createLocation(
            NewStudentLocation(
                uniqueKey: bobSession.accountKey, firstName: "Bob", lastName: "B", mapString: "Oslo", mediaURL: "",
                latitude: 59.9, longitude: 10.7)
        ).objectId

        let which = try await onthemap(["delete", "--yes"])
        #expect(which.status == 1)
        #expect(which.stderr.contains("you have 3 locations; say which"), "\(which.stderr)")
        #expect(ids.allSatisfy { which.stderr.contains($0) }, "names every objectId")
        #expect(try await onthemap(["delete", ids[1]]).status == 4, "no terminal, no --yes: refused")
        #expect(try await onthemap(["delete", bobRow, "--yes"]).status == 1, "not one of yours")
        #expect(try await server.locationCount() == 4)

        let one = try await onthemap(["delete", ids[1], "--yes"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout == "Deleted your location at Porto (\(ids[1])).\n")
        #expect(try await server.locationCount() == 3)

        let all = try await onthemap(["delete", "--all", "--yes"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.split(separator: "\n").count == 2)
        #expect(try await server.locationCount() == 1, "Bob's row stays")
        #expect(try await onthemap(["delete", "--all", ids[0]]).status == 64)
    }

    /// A stored session for `server`, as `onthemap login` writes it.
    static func storeSession(for server: URL, in home: URL, provider: String = "password") throws -> URL {
        let folder = home.appendingPathComponent("state/onthemap")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("session.json")
        let body: [String: String] = [
            "server": server.absoluteString, "accountKey": "u1", "sessionID": "sid-1",
            "expiration": "2099-01-01T00:00:00.000Z", "provider": provider,
        ]
        try JSONSerialization.data(withJSONObject: body).write(to: file)
        return file
    }

    @Test func accountDeleteAsksForThePasswordAgainAndSaysWhatWent() async throws {
        let standIn = try StandInServer { request in
            guard request.method == "DELETE", request.target == "/v1/users/u1",
                request.headers["authorization"] == "Bearer sid-1"
            else { return .init(status: 404, "{}") }
            let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]
            return body?["password"] as? String == "right pass"
                ? .init(status: 200, #"{"deleted":{"locations":2,"sessions":1}}"#)
                : .init(status: 403, #"{"status":403,"error":"Account not found or invalid credentials."}"#)
        }
        defer { standIn.stop() }
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let file = try Self.storeSession(for: standIn.baseURL, in: home)
        let server = ["--server", standIn.baseURL.absoluteString]

        let noTerminal = try await Self.run(["account", "delete"] + server, home: home)
        #expect(noTerminal.status == 1 && noTerminal.stderr.contains("--password-stdin"))
        let wrong = try await Self.run(["account", "delete", "--password-stdin"] + server, home: home, input: "nope\n")
        #expect(wrong.status == 4)
        #expect(wrong.stderr.contains("wrong password: the account was not deleted."))
        #expect(FileManager.default.fileExists(atPath: file.path))

        let done = try await Self.run(["account", "delete", "--password-stdin"] + server, home: home, input: "right pass\n")
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdout.contains("2 locations and 1 session removed"))
        #expect(!FileManager.default.fileExists(atPath: file.path), "the stored session is forgotten")
        #expect(try await Self.run(["account", "delete", "--password-stdin"] + server, home: home, input: "x\n").status == 3)
    }

    @Test func exportWritesTheServersAnswerEscapedToStdoutOrAPrivateFile() async throws {
        let hostile = "Evil\u{1B}]52;c;AAAA\u{07}\u{202E}name"
        let body = try JSONSerialization.data(withJSONObject: [
            "account": ["key": "u1", "email": "a@b.c", "firstName": hostile],
            "locations": [
                ["objectId": "r1", "uniqueKey": "u1", "latitude": 1, "longitude": 2, "hidden": true, "hiddenReason": "spam"]
            ],
        ])
        let standIn = try StandInServer { request in
            request.target == "/v1/users/u1/export" && request.headers["authorization"] == "Bearer sid-1"
                ? .init(status: 200, body: body) : .init(status: 404, "{}")
        }
        defer { standIn.stop() }
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try Self.storeSession(for: standIn.baseURL, in: home)
        let server = ["--server", standIn.baseURL.absoluteString]

        let out = try await Self.run(["export"] + server, home: home)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(!out.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{07}" })
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        #expect((parsed["account"] as? [String: Any])?["firstName"] as? String == hostile, "escaped, not lost")
        let rows = try #require(parsed["locations"] as? [[String: Any]])
        #expect(rows.first?["hidden"] as? Bool == true)

        let path = home.appendingPathComponent("me.json").path
        let written = try await Self.run(["export", "--output", path] + server, home: home)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.isEmpty && written.stderr.contains("1 location"))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == out.stdout)

        // An existing file, or a symlink to one, is neither truncated nor written through; --force
        // replaces the path itself.
        let other = home.appendingPathComponent("someone-elses.txt").path
        try "keep me\n".write(toFile: other, atomically: false, encoding: .utf8)
        let link = home.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: other)
        for target in [path, link] {
            let refused = try await Self.run(["export", "--output", target] + server, home: home)
            #expect(refused.status == 1 && refused.stderr.contains("already exists: give --force"), "\(refused.stderr)")
        }
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "keep me\n")
        let forced = try await Self.run(["export", "--output", link, "--force"] + server, home: home)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "keep me\n", "the symlink's target untouched")
        #expect(try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: link, encoding: .utf8) == out.stdout)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
