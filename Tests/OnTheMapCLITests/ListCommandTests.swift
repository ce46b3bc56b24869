import Foundation
import Launcher
import OnTheMapModels
import Testing

@testable import onthemap

/// `onthemap list` as a user runs it: the real binary, the embedded default, a stopped server.
@Suite struct ListCommandTests {
    /// The built `onthemap`, beside the test bundle (or `$ONTHEMAP_BIN`).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["ONTHEMAP_BIN"] { return URL(fileURLWithPath: path) }
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()].map {
            $0.appendingPathComponent("onthemap")
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String

        init(status: Int32, stdout: String, stderr: String) {
            (self.status, self.stdout, self.stderr) = (status, stdout, stderr)
        }

        init(_ result: LaunchedProcess.Result) {
            self.init(status: result.status, stdout: result.stdout, stderr: result.stderr)
        }
    }

    /// The real `onthemap` with `arguments`, started: its XDG folders (data, state, config) under
    /// `dataHome`, no `ONTHEMAP_*` setting of the caller's, `environment` added on top, its
    /// output captured (for a command that runs until stopped, such as `watch`). `executable`
    /// runs instead of the binary when given (a parent that runs it, say).
    static func start(
        _ arguments: [String], dataHome: URL, input: String? = nil, environment extra: [String: String] = [:],
        executable: URL? = nil
    ) throws -> LaunchedProcess {
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("ONTHEMAP_") && $0.key != "ACCESSIBLE"
        }
        environment["XDG_DATA_HOME"] = dataHome.path
        // A login's stored session stays in the test's folder, never in the real home's state.
        environment["XDG_STATE_HOME"] = dataHome.appendingPathComponent("state").path
        // No settings file of the developer's changes what a test sees.
        environment["XDG_CONFIG_HOME"] = dataHome.appendingPathComponent("config").path
        environment.merge(extra) { $1 }
        return try LaunchedProcess.start(
            executable ?? binary, arguments, environment: environment, input: input.map { .bytes(Data($0.utf8)) } ?? .null)
    }

    /// Runs the real `onthemap` with `arguments`, set up as `start` describes, and `input` on its
    /// standard input (/dev/null when nil), to its end. Waits without blocking a thread: a test
    /// server in this process answering that process needs the cooperative pool's few threads
    /// (bcrypt included), which a blocked test thread would starve on a 2-core machine.
    static func run(
        _ arguments: [String], dataHome: URL, input: String? = nil, environment: [String: String] = [:]
    ) async throws -> Run {
        Run(try await start(arguments, dataHome: dataHome, input: input, environment: environment).finished())
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func jsonOnTheEmbeddedDefaultIsTheNewestHundred() async throws {
        let home = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try await Self.run(["list", "--format", "json"], dataHome: home)
        #expect(run.status == 0, "\(run.stderr)")
        let records = try JSONDecoder().decode([StudentInformation].self, from: Data(run.stdout.utf8))
        #expect(records.count == 100)
        let stamps = records.compactMap(\.updatedAt)
        #expect(stamps.count == 100 && stamps == stamps.sorted(by: >))
        // The demo class's broken rows sit further down than the newest hundred.
        #expect(run.stderr == "")
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("onthemap/demo.sqlite").path))
        // The wire field names, exactly.
        let first = try #require((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(Set(first.keys) == ["objectId", "uniqueKey", "firstName", "lastName", "mapString", "mediaURL", "latitude", "longitude", "createdAt", "updatedAt"])
    }

    @Test func aStoppedServerIsOneLineAndExitOne() async throws {
        let home = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try await Self.run(["list", "--server", "http://127.0.0.1:9"], dataHome: home)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "onthemap: Cannot reach the server at 127.0.0.1:9. Check that it is running and the address is right.\n")
    }

    @Test func aBadServerURLIsAUsageError() async throws {
        let home = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try await Self.run(["list", "--server", "javascript:alert(1)"], dataHome: home)
        #expect(run.status != 0)
        #expect(run.stderr.contains("The server must be an http:// or https:// URL"))
    }
}

/// The output formats, on hostile rows.
@Suite struct LocationFormatterTests {
    static let hostile = StudentInformation(
        objectId: "x", uniqueKey: "k", firstName: "\u{1B}]0;owned\u{07}Eve", lastName: "\u{1B}[31mRed\u{202E}",
        mapString: "=HYPERLINK(\"http://evil\")", mediaURL: "javascript:alert(1)\u{9B}2J", latitude: 1, longitude: 2,
        updatedAt: Date(timeIntervalSince1970: 0))

    @Test func tableAndCSVCarryNoControls() {
        for output in [LocationFormatter.table([Self.hostile]), LocationFormatter.csv([Self.hostile])] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E })
        }
        #expect(LocationFormatter.csv([Self.hostile]).contains(#"'=HYPERLINK(""http://evil"")""#))
    }

    @Test func jsonEscapesControlsButKeepsTheData() throws {
        let json = try LocationFormatter.json([Self.hostile])
        #expect(!json.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x202E })
        let decoded = try JSONDecoder().decode([StudentInformation].self, from: Data(json.utf8))
        #expect(decoded.first?.firstName == Self.hostile.firstName)
        #expect(decoded.first?.mediaURL == Self.hostile.mediaURL)
    }
}
