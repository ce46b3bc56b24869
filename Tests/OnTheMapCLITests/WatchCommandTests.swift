import Foundation
import Launcher
import ServerTestSupport
import Testing

/// `onthemap watch` against a real server process: one line per event its `--where` matches.
@Suite struct WatchCommandTests {
    /// Starts `onthemap watch` and returns it with its stdout's lines (the events) and its
    /// stderr's (`live: watching …` each time a subscription is confirmed).
    static func startWatch(_ arguments: [String], dataHome: URL) throws -> (LaunchedProcess, Lines, Lines) {
        let process = try ListCommandTests.start(["watch"] + arguments, dataHome: dataHome)
        return (process, process.standardOutput.lines(), process.standardError.lines())
    }

    /// Waits for the next confirmed subscription: after it, every matching post is an event.
    /// (60 s only ends a test that would otherwise hang.)
    static func waitUntilLive(_ notes: Lines) async -> Bool {
        while let line = await notes.next() {
            if line.hasPrefix("live: watching") { return true }
        }
        return false
    }

    @Test func printsOneLinePerMatchingEvent() async throws {
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = try await ServerProcess.start(
            database: home.appendingPathComponent("server.sqlite").path, arguments: ["--open-writes"])
        let (watch, lines, notes) = try Self.startWatch(
            ["--server", server.baseURL.absoluteString, "--format", "json", "--where", #"{"mapString":"Lisbon"}"#],
            dataHome: home)
        defer { watch.terminate() }

        try #require(await Self.waitUntilLive(notes))
        try await Self.post(server, firstName: "Ada", mapString: "Lisbon")
        let line = try #require(await lines.next())
        #expect(line.contains(#""op":"create""#) && line.contains("Ada"))
        try await Self.post(server, firstName: "Grace", mapString: "Paris")  // not matched
        try await Self.post(server, firstName: "Alan", mapString: "Lisbon")
        let second = try #require(await lines.next())
        #expect(second.contains("Alan") && !second.contains("Grace"))
        server.terminate()
    }

    @Test func reconnectsWhenTheServerComesBack() async throws {
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let database = home.appendingPathComponent("server.sqlite").path
        let first = try await ServerProcess.start(database: database, arguments: ["--open-writes"])
        let port = first.port
        let (watch, lines, notes) = try Self.startWatch(["--server", first.baseURL.absoluteString], dataHome: home)
        defer { watch.terminate() }
        try #require(await Self.waitUntilLive(notes))
        try await Self.post(first, firstName: "Before", mapString: "Lisbon")
        #expect(await lines.next()?.contains("Before") == true)
        first.terminate()
        // The same port and database again: watch reconnects by itself (1 s, then 2 s, …).
        let second = try await ServerProcess.start(database: database, arguments: ["--open-writes", "--port", "\(port)"])
        defer { second.terminate() }
        #expect(second.port == port)
        try #require(await Self.waitUntilLive(notes))
        try await Self.post(second, firstName: "After", mapString: "Lisbon")
        var after = await lines.next()
        while let line = after, !line.contains("After") { after = await lines.next() }
        #expect(after?.contains("After") == true)
    }

    static func post(_ server: ServerProcess, firstName: String, mapString: String) async throws {
        let reply = try await RawHTTP.send(
            "POST", server.baseURL, "/parse/classes/StudentLocation",
            json: #"{"uniqueKey":"k","firstName":"\#(firstName)","lastName":"L","mapString":"\#(mapString)","latitude":1,"longitude":2}"#)
        #expect(reply.status == 201)
    }
}
