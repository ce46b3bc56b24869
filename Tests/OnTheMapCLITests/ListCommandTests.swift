import Foundation
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
    }

    /// Runs the real `onthemap` with `arguments`, its XDG folders (data, state, config) under
    /// `dataHome` and no `ONTHEMAP_*` setting of the caller's, `environment` added on top, and
    /// `input` on its standard input (none when nil). Blocks until the process ends.
    static func run(
        _ arguments: [String], dataHome: URL, input: String? = nil, environment extra: [String: String] = [:]
    ) throws -> Run {
        let process = makeProcess(arguments, dataHome: dataHome, environment: extra)
        let (stdin, out, err) = (Pipe(), Pipe(), Pipe())
        if input != nil { process.standardInput = stdin }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The real `onthemap` with `arguments`, set up as `run` describes, not yet started (for a
    /// command that runs until stopped, such as `watch`).
    static func makeProcess(_ arguments: [String], dataHome: URL, environment extra: [String: String] = [:]) -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("ONTHEMAP_") && $0.key != "ACCESSIBLE"
        }
        environment["XDG_DATA_HOME"] = dataHome.path
        // A login's stored session stays in the test's folder, never in the real home's state.
        environment["XDG_STATE_HOME"] = dataHome.appendingPathComponent("state").path
        // No settings file of the developer's changes what a test sees.
        environment["XDG_CONFIG_HOME"] = dataHome.appendingPathComponent("config").path
        environment.merge(extra) { $1 }
        process.environment = environment
        return process
    }

    /// `run` on a thread of its own: it blocks until the process ends, and a test server in this
    /// process answering that process needs the cooperative pool's few threads (bcrypt included),
    /// which a blocked test thread would starve on a 2-core machine.
    static func runOffPool(
        _ arguments: [String], dataHome: URL, input: String? = nil, environment: [String: String] = [:]
    ) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result { try run(arguments, dataHome: dataHome, input: input, environment: environment) })
            }.start()
        }
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func jsonOnTheEmbeddedDefaultIsTheNewestHundred() throws {
        let home = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try Self.run(["list", "--format", "json"], dataHome: home)
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

    @Test func aStoppedServerIsOneLineAndExitOne() throws {
        let home = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try Self.run(["list", "--server", "http://127.0.0.1:9"], dataHome: home)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "onthemap: Cannot reach the server at 127.0.0.1:9. Check that it is running and the address is right.\n")
    }

    @Test func aBadServerURLIsAUsageError() throws {
        let home = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try Self.run(["list", "--server", "javascript:alert(1)"], dataHome: home)
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
