import AppTestSupport
import Foundation
import ServerTestSupport
import StandIn
import Testing

/// `onthemap list|map|geocode` — the real binary — against a stand-in hostile server on loopback
/// whose error bodies, rows and geocoder answers carry escape sequences (a clipboard write, a
/// window title, a screen clear), C1 controls as UTF-8 and bidi controls: none of them may reach
/// stdout or stderr raw (issue 9, item 7).
@Suite struct HostileServerTests {
    /// ESC/OSC/CSI, C1 (CSI, OSC, ST, NEL), DEL, bidi overrides, isolates and marks.
    static let nasty =
        "\u{1B}]52;c;aGVsbG8=\u{07}\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mred\u{9B}31m\u{9D}0;c1\u{9C}\u{85}"
        + "\u{7F}\u{202E}gnp.exe\u{202C}\u{2066}iso\u{2069}\u{200F}\u{061C}end"

    /// Scalars that may act on a terminal or reorder text; tab and line breaks are the outputs' own.
    static func controls(in data: Data) -> [String] {
        guard let text = String(data: data, encoding: .utf8) else { return ["invalid UTF-8"] }
        return text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: return false
            case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }.map { String(format: "U+%04X", $0.value) }
    }

    static func json(_ object: Any) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object)) ?? Data(), as: UTF8.self)
    }

    /// Two rows whose every text field is hostile.
    static let rows = json([
        "results": (1...2).map { index in
            [
                "objectId": "obj\(index)", "uniqueKey": "k\(index)", "firstName": "Eve\(nasty)",
                "lastName": "Mallory\(nasty)", "mapString": "Sydney\(nasty)", "mediaURL": "https://evil.example/\(nasty)",
                "latitude": -33.9, "longitude": 151.2, "createdAt": "2026-01-01T00:00:00.000Z",
                "updatedAt": "2026-01-01T00:00:00.000Z",
            ] as [String: Any]
        }
    ])

    /// The ways a server's words reach an error message: a JSON error body, a plain-text body with
    /// the raw bytes, a 429, a 5xx.
    static let refusals: [StandInServer.Response] = [
        .init(status: 400, json(["code": 102, "error": "bad \(nasty)"])),
        .init(status: 403, headers: ["Content-Type": "text/plain"], "plain \(nasty)"),
        .init(status: 429, headers: ["Retry-After": "60"], json(["error": "slow down \(nasty)"])),
        .init(status: 500, headers: ["Content-Type": "text/html"], "<h1>\(nasty)</h1>"),
        .init(status: 200, json(["results": "not a list \(nasty)"])),
    ]

    func run(_ arguments: [String]) async throws -> (status: Int32, stdout: Data, stderr: Data) {
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await ListCommandTests.run(arguments, dataHome: home)
        return (result.status, Data(result.stdout.utf8), Data(result.stderr.utf8))
    }

    func expectClean(
        _ result: (status: Int32, stdout: Data, stderr: Data), _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(Self.controls(in: result.stdout).isEmpty, "stdout of \(what)", sourceLocation: sourceLocation)
        #expect(Self.controls(in: result.stderr).isEmpty, "stderr of \(what)", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["table", "json", "csv"])
    func listRowsInEveryFormat(_ format: String) async throws {
        let server = try StandInServer.answering { _ in (200, Self.rows) }
        defer { server.stop() }
        let result = try await run(["list", "--server", server.baseURL.absoluteString, "--format", format])
        #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        expectClean(result, "list --format \(format)")
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(output.contains("Sydney"))
        if format == "json" {
            // The data is kept: the escapes read back as the server's strings.
            let records = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
            #expect(records.first?["mapString"] as? String == "Sydney\(Self.nasty)")
        }
    }

    @Test(arguments: 0..<HostileServerTests.refusals.count)
    func listAndMapErrors(_ index: Int) async throws {
        let refusal = Self.refusals[index]
        let server = try StandInServer { _ in refusal }
        defer { server.stop() }
        for arguments in [["list"], ["list", "--format", "json"], ["map"]] {
            let result = try await run(arguments + ["--server", server.baseURL.absoluteString])
            #expect(result.status == 1)
            #expect(String(decoding: result.stderr, as: UTF8.self).hasPrefix("onthemap: "))
            expectClean(result, "\(arguments) on answer \(refusal.status)")
        }
    }

    @Test func mapOfHostileRows() async throws {
        let server = try StandInServer.answering { _ in (200, Self.rows) }
        defer { server.stop() }
        let result = try await run(["map", "--server", server.baseURL.absoluteString, "--width", "80", "--height", "24"])
        #expect(result.status == 0)
        expectClean(result, "map")
    }

    /// A Nominatim whose names carry the controls: text and JSON, best place and alternatives.
    @Test func geocodeWithAHostileNominatim() async throws {
        let place: (String) -> [String: Any] = { name in
            [
                "lat": "-33.87", "lon": "151.21", "name": name, "display_name": "Sydney \(name) \(Self.nasty)",
                "addresstype": "city", "place_rank": 16, "importance": 0.7,
                "boundingbox": ["-34.1", "-33.5", "150.5", "151.4"],
            ]
        }
        let answer = Self.json([place("Sydney"), place("Sydney Mines")])
        let server = try StandInServer.answering { _ in (200, answer) }
        defer { server.stop() }
        let online = ["--geocoder", "nominatim", "--geocoder-url", server.baseURL.absoluteString, "Sydney"]
        let text = try await run(["geocode"] + online)
        #expect(text.status == 0, "\(String(decoding: text.stderr, as: UTF8.self))")
        expectClean(text, "geocode")
        #expect(String(decoding: text.stdout, as: UTF8.self).contains("Sydney"))
        let json = try await run(["geocode", "--json"] + online)
        #expect(json.status == 0)
        expectClean(json, "geocode --json")
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        #expect((object["displayName"] as? String)?.hasSuffix(Self.nasty) == true)
        #expect(server.requests.count == 2)
    }

    @Test func geocodeWithAHostileNominatimError() async throws {
        let server = try StandInServer { _ in
            .init(status: 500, headers: ["Content-Type": "text/plain"], "down \(Self.nasty)")
        }
        defer { server.stop() }
        for json in [[], ["--json"]] {
            let result = try await run(
                ["geocode"] + json + ["--geocoder", "nominatim", "--geocoder-url", server.baseURL.absoluteString, "Paris"])
            #expect(result.status == 0)
            expectClean(result, "geocode \(json) on a failing Nominatim")
        }
    }
}
