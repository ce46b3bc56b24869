import APIClient
import AppTestSupport
import Foundation
import Launcher
import OnTheMapModels
import ServerTestSupport
import Testing

@testable import onthemap

/// `onthemap watch` as a user runs it: the real binary against a real server on loopback,
/// reading its output line by line while rows are written through REST.
@Suite struct WatchOutputTests {
    /// A running `onthemap watch` and the lines it has printed so far.
    final class Watcher: Sendable {
        let process: LaunchedProcess

        init(_ arguments: [String], dataHome: URL) throws {
            process = try ListCommandTests.start(arguments, dataHome: dataHome)
        }

        var lines: [String] { process.standardOutput.text.split(separator: "\n").map(String.init) }
        var errors: String { process.standardError.text }

        func stop() { process.terminate() }
    }

    func location(key: String, name: String, place: String) -> NewStudentLocation {
        NewStudentLocation(
            uniqueKey: key, firstName: name, lastName: "Lovelace", mapString: place,
            mediaURL: "https://example.com/ada",
            latitude: 38.72, longitude: -9.14)
    }

    @Test func jsonLinesForEachEventEscapedAndFilteredByWhere() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let key = try await server.addUser(email: "ada@example.com")
        let api = OnTheMapClient(configuration: APIConfiguration(baseURL: server.baseURL, timeout: TestServer.clientTimeout))
        _ = try await api.logIn(email: "ada@example.com", password: "correct horse")

        let json = try Watcher(
            [
                "watch", "--server", server.baseURL.absoluteString, "--format", "json", "--where",
                #"{"firstName":{"$ne":"Skip"}}"#,
            ],
            dataHome: home)
        defer { json.stop() }
        let text = try Watcher(["watch", "--server", server.baseURL.absoluteString], dataHome: home)
        defer { text.stop() }
        #expect(await eventually { json.errors.contains("live:") && text.errors.contains("live:") })

        _ = try await api.createLocation(location(key: key, name: "Skip", place: "Nowhere"))
        let created = try await api.createLocation(location(key: key, name: "Ada\u{1B}[2J", place: "Lisbon\u{202E}"))
        _ = try await api.updateLocation(
            objectId: created.objectId, with: location(key: key, name: "Ada", place: "Porto"))
        #expect(await eventually { json.lines.count >= 2 && text.lines.count >= 3 })

        let events = json.lines.map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.map { $0?["op"] as? String } == ["create", "update"], "the where left out Skip: \(json.lines)")
        let object = try #require(events.first??["object"] as? [String: Any])
        #expect(object["objectId"] as? String == created.objectId)
        #expect(object["firstName"] as? String == "Ada\u{1B}[2J", "the data is exact once parsed")
        #expect(
            !json.lines.joined().unicodeScalars.contains { $0.value == 0x1B || $0 == "\u{202E}" }, "escaped on the wire"
        )
        #expect(text.lines.count == 3)
        #expect(text.lines[1].hasPrefix("create Ada") && text.lines[1].contains("Lovelace · Lisbon"))
        #expect(text.lines[2].hasPrefix("update Ada Lovelace · Porto"))
        #expect(!text.lines.joined().unicodeScalars.contains { $0.value == 0x1B || $0 == "\u{202E}" })
    }

    @Test func aBadWhereIsRefusedBeforeConnecting() async throws {
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try await ListCommandTests.run(
            ["watch", "--server", "http://127.0.0.1:9", "--where", "[1]"], dataHome: home)
        #expect(run.status != 0)
        #expect(run.stderr.contains("--where must be a JSON object"))
    }
}
