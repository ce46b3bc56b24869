import Foundation
import Launcher
import ServerTestSupport
import Testing

/// `onthemap-server`'s moderation commands and fair-share flags, as an operator runs them beside
/// a serving process: every act reaches the server's callers and the audit log, and every name,
/// place and link printed is cleaned of terminal controls.
@Suite struct ModerationCommandTests {
    /// Runs `onthemap-server <arguments> --database <database>`; returns its status and standard output.
    /// With `--password-stdin` among the arguments, `correct horse` is its standard input (else nothing).
    static func command(_ arguments: [String], database: String, input: String? = nil) throws -> (status: Int32, output: String) {
        let given = input ?? (arguments.contains("--password-stdin") ? "correct horse\n" : "")
        let run = try LaunchedProcess.runBlocking(
            ProductBinary.url("onthemap-server"), arguments + ["--database", database], input: .bytes(Data(given.utf8)),
            errors: .discard)  // refusals: the status says enough
        return (run.status, run.stdout)
    }

    static func send(_ method: String, _ port: Int, _ path: String, session: String? = nil, json: String? = nil)
        async throws
        -> RawHTTP.Reply
    {
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        return try await RawHTTP.send(
            method, base, path, headers: session.map { ["Authorization": "Bearer \($0)"] } ?? [:], json: json)
    }

    static func logIn(_ port: Int, _ email: String) async throws -> RawHTTP.Reply {
        try await send(
            "POST", port, "/v1/session", json: #"{"udacity":{"username":"\#(email)","password":"correct horse"}}"#)
    }

    @Test(arguments: TestBackend.available)
    func operatorModeratesFromTheCommandLine(backend: TestBackend) async throws {
        let server = try await AbuseServer.start(
            backend, ["--max-rows-per-account", "2", "--max-writes-per-minute", "100", "--list-cache-seconds", "0"])
        defer { Task { await server.stop() } }
        let database = server.database
        // A name with controls is refused at the door (#18); the rows' hostile strings below still
        // test that what the commands print is cleaned.
        let hostile = try Self.command(
            [
                "user", "add", "--email", "eve@example.com", "--password-stdin", "--first-name",
                "Eve\u{1B}]0;owned\u{07}", "--last-name", "Lovelace",
            ], database: database)
        #expect(hostile.status != 0)
        let add = try Self.command(
            [
                "user", "add", "--email", "ada@example.com", "--password-stdin", "--first-name", "Ada",
                "--last-name", "Lovelace",
            ], database: database)
        #expect(add.status == 0)
        let adaKey = add.output.trimmingCharacters(in: .whitespacesAndNewlines)
        // A password on the command line (ps, shell history) is refused; so is a prompt with no terminal.
        for arguments in [
            ["user", "add", "--email", "argv@example.com", "--password", "correct horse", "--first-name", "A", "--last-name", "V"],
            ["user", "add", "--email", "argv@example.com", "--first-name", "A", "--last-name", "V"],
            ["user", "reset-password", "ada@example.com", "--password", "another horse"],
        ] {
            #expect(try Self.command(arguments, database: database).status != 0, "\(arguments)")
        }
        #expect(try await Self.logIn(server.port, "argv@example.com").status == 403)
        let reset = try Self.command(
            ["user", "reset-password", "ada@example.com", "--password-stdin"], database: database, input: "correct horse\n")
        #expect(reset.status == 0)
        let moderator = try Self.command(
            [
                "user", "add", "--email", "mod@example.com", "--password-stdin", "--first-name", "M",
                "--last-name", "Od",
                "--role", "moderator",
            ], database: database)
        #expect(moderator.status == 0)
        #expect(
            try Self.command(
                [
                    "user", "add", "--email", "x@example.com", "--password-stdin", "--first-name", "X",
                    "--last-name", "Y", "--role", "admin",
                ], database: database
            ).status != 0)

        let login = try await Self.logIn(server.port, "ada@example.com")
        let ada = try #require(
            ((login.json(prefixed: true) as? [String: Any])?["session"] as? [String: Any])?["id"] as? String)
        var rows: [String] = []
        for place in ["Lisbon\u{1B}[2J", "Porto"] {
            let fields: [String: Any] = [
                "uniqueKey": adaKey, "mapString": place, "mediaURL": "https://example.com/\u{1B}[31m", "latitude": 1,
                "longitude": 2,
            ]
            let body = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
            let post = try await Self.send("POST", server.port, "/v1/StudentLocation", session: ada, json: body)
            #expect(post.status == 201, "\(place): \(post.text)")
            rows.append(try #require((post.json() as? [String: Any])?["objectId"] as? String))
        }
        let third = try await Self.send(
            "POST", server.port, "/v1/StudentLocation", session: ada,
            json: #"{"uniqueKey":"\#(adaKey)","latitude":1,"longitude":2}"#)
        #expect(
            third.status == 403 && (third.json() as? [String: Any])?["code"] as? Int == 119, "--max-rows-per-account 2")

        let list = try Self.command(["location", "list"], database: database)
        #expect(list.status == 0 && list.output.contains(rows[0]) && list.output.contains("2 locations."))
        #expect(
            !list.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 },
            "cleaned: \(list.output.debugDescription)")
        let users = try Self.command(["user", "list"], database: database)
        #expect(users.output.contains("moderator") && !users.output.unicodeScalars.contains { $0.value == 0x1B })

        #expect(
            try Self.command(["location", "hide", rows[0], "--reason", "not a real place"], database: database).status
                == 0)
        let hiddenList = try Self.command(["location", "list", "--hidden"], database: database)
        #expect(hiddenList.output.contains("hidden: not a real place") && hiddenList.output.contains("1 location."))
        let publicRows = try await Self.send("GET", server.port, "/v1/StudentLocation?count=1")
        #expect((publicRows.json() as? [String: Any])?["count"] as? Int == 1)
        #expect(try Self.command(["location", "unhide", rows[0]], database: database).status == 0)
        #expect(try Self.command(["location", "delete", rows[1]], database: database).status == 0)
        #expect(try Self.command(["location", "delete", "no-such-row"], database: database).status != 0)

        let suspend = try Self.command(["user", "suspend", "ada@example.com", "--reason", "spam"], database: database)
        #expect(suspend.status == 0)
        let stale = try await Self.send(
            "PUT", server.port, "/v1/StudentLocation/\(rows[0])", session: ada, json: #"{"mapString":"x"}"#)
        #expect(stale.status == 403 && (stale.json() as? [String: Any])?["code"] as? Int == 209)
        let refused = try await Self.logIn(server.port, "ada@example.com")
        #expect(refused.status == 403 && refused.text.contains("suspended"))
        let hidden = try await Self.send("GET", server.port, "/v1/StudentLocation?count=1")
        #expect((hidden.json() as? [String: Any])?["count"] as? Int == 0)
        #expect(try Self.command(["user", "unsuspend", adaKey], database: database).status == 0)
        #expect(try await Self.logIn(server.port, "ada@example.com").status == 200)
        #expect(try Self.command(["user", "role", "ada@example.com", "moderator"], database: database).status == 0)

        let delete = try Self.command(["user", "delete", "ada@example.com"], database: database)
        #expect(delete.status == 0 && delete.output.contains("and 1 location."))
        let audit = try Self.command(["audit"], database: database)
        let actions = audit.output.split(separator: "\n").dropLast().map {
            $0.split(separator: "\t").dropFirst().prefix(2).joined(separator: " ")
        }
        #expect(
            actions == [
                "operator role", "operator hide", "operator unhide", "operator delete-location", "operator suspend",
                "operator unsuspend", "operator role", "operator delete-account",
            ], "\(audit.output)")
        #expect(audit.output.hasSuffix("8 entries.\n"))
        #expect(try Self.command(["audit", "--since", "2999-01-01"], database: database).output == "0 entries.\n")
    }

    /// An export holds hidden rows and their reasons: its file is the operator's alone (0600),
    /// also when it replaces an existing file that others could read.
    @Test func exportFilesArePrivate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("server.sqlite").path
        for format in ["json", "csv"] {
            let fresh = directory.appendingPathComponent("fresh.\(format)").path
            let old = directory.appendingPathComponent("old.\(format)").path
            #expect(FileManager.default.createFile(atPath: old, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
            // An existing file is refused without --force, and left as it was.
            #expect(try Self.command(["export", "--format", format, "--output", old], database: database).status != 0)
            #expect(try String(contentsOfFile: old, encoding: .utf8) == "old")
            for (file, force) in [(fresh, []), (old, ["--force"])] {
                #expect(try Self.command(["export", "--format", format, "--output", file] + force, database: database).status == 0)
                let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
                #expect(mode == 0o600, "\(file): \(String(mode ?? 0, radix: 8))")
            }
        }
        // A symlink at --output (to a file someone wants kept) is never followed: refused, then
        // with --force replaced by the export, its target untouched.
        let kept = directory.appendingPathComponent("kept.txt").path
        #expect(FileManager.default.createFile(atPath: kept, contents: Data("kept".utf8)))
        let link = directory.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: kept)
        #expect(try Self.command(["export", "--output", link], database: database).status != 0)
        #expect(try Self.command(["export", "--output", link, "--force"], database: database).status == 0)
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "kept")
        #expect(try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType == .typeRegular)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
