import Foundation
import Launcher
import ServerTestSupport
import Testing

/// Names and emails with escape sequences, C1 and bidi controls: refused at sign-up, and never
/// printed raw by the operator's commands (`user list`, `invite list`, `export` as JSON and CSV),
/// even for rows that got into the database another way (an older version, an import).
@Suite struct HostileNamesTests {
    /// A clipboard write, a screen clear, C1 CSI/OSC/NEL, DEL, a bidi override and an isolate.
    static let nasty = "\u{1B}]52;c;aGVsbG8=\u{07}\u{1B}[2J\u{9B}31m\u{9D}0;x\u{9C}\u{85}\u{7F}\u{202E}gnp.exe\u{202C}\u{2066}end"

    /// The scalars of `text` that may act on a terminal or reorder text (tab and line breaks are
    /// the outputs' own).
    static func controls(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: return false
            case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: return true
            default: return false
            }
        }.map { String(format: "U+%04X", $0.value) }
    }

    static func json(_ object: Any) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }

    /// `onthemap-server ARGUMENTS`, its stdout and exit status.
    static func command(_ arguments: [String], input: Data? = nil) throws -> (status: Int32, stdout: String) {
        let run = try LaunchedProcess.runBlocking(
            ProductBinary.url("onthemap-server"), arguments, input: .bytes(input ?? Data()), errors: .discard)
        return (run.status, run.stdout)
    }

    @Test(arguments: TestBackend.available)
    func hostileNamesAreRefusedAtSignUpAndNeverPrintedRaw(backend: TestBackend) async throws {
        let server = try await AbuseServer.start(backend)
        defer { Task { await server.stop() } }
        for (field, value) in [("first_name", "Eve" + Self.nasty), ("last_name", "Mallory\u{202E}"), ("email", "eve\u{85}@example.com")] {
            var body: [String: Any] = ["email": "eve@example.com", "password": "correct horse", "first_name": "Eve", "last_name": "M"]
            body[field] = value
            let reply = try await BoundHTTP.send("POST", server.port, "/v1/users", json: Self.json(body))
            #expect(reply.status == 400, "\(field): \(reply.text)")
            #expect((reply.json(prefixed: true) as? [String: Any])?["parameter"] as? String == field)
        }
        #expect(try await server.signUp("ada@example.com").status == 201)

        // Rows that got in another way: an import of hostile locations, and an account written
        // by an older version straight into the database.
        let rows = (1...2).map { index in
            ["objectId": "hostile\(index)", "uniqueKey": "k\(index)", "firstName": "Eve" + Self.nasty, "lastName": Self.nasty,
             "mapString": "Sydney" + Self.nasty, "mediaURL": "https://evil.example/" + Self.nasty, "latitude": -33.9,
             "longitude": 151.2] as [String: Any]
        }
        let imported = try Self.command(["import", "-", "--format", "json", "--database", server.database],
                                        input: Data(Self.json(["results": rows]).utf8))
        #expect(imported.status == 0)
        try await Self.insertHostileAccount(server)
        _ = try Self.command(["invite", "create", "--database", server.database])

        let list = try Self.command(["user", "list", "--database", server.database])
        #expect(list.status == 0)
        #expect(list.stdout.contains("2 accounts."), "\(list.stdout)")
        #expect(Self.controls(in: list.stdout) == [], "user list")
        let invites = try Self.command(["invite", "list", "--database", server.database])
        #expect(invites.status == 0 && Self.controls(in: invites.stdout) == [], "invite list")
        for format in ["json", "csv"] {
            let export = try Self.command(["export", "--format", format, "--database", server.database])
            #expect(export.status == 0)
            #expect(export.stdout.contains("Sydney"), "\(format)")
            #expect(Self.controls(in: export.stdout) == [], "export \(format)")
        }
        // JSON stays exact: the escapes read back as the hostile text.
        let json = try Self.command(["export", "--format", "json", "--database", server.database]).stdout
        let results = (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["results"] as? [[String: Any]]
        #expect(results?.first?["lastName"] as? String == Self.nasty)
    }

    /// An account whose names hold the hostile text, inserted with the backend's own client.
    static func insertHostileAccount(_ server: AbuseServer) async throws {
        let name = nasty.replacingOccurrences(of: "'", with: "''")
        let sql = "INSERT INTO account (key, email, password_hash, first_name, last_name, created_at) VALUES "
            + "('9999999999', 'eve\u{9B}2J@example.com', '', 'Eve\(name)', 'M\(name)', '2026-01-01T00:00:00.000Z')"
        let command =
            switch server.backend {
            case .sqlite:
                ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()", server.database, sql]
            case .postgres: ["psql", "-qAt", "-d", server.database, "-c", sql]
            }
        let run = try await LaunchedProcess.run(program: command[0], Array(command.dropFirst()))
        #expect(run.status == 0, "inserting the hostile account: \(run.stderr)")
    }
}
