import Foundation
import ServerTestSupport
import Testing

/// `onthemap watch` against a real server process: one line per event its `--where` matches.
@Suite struct WatchCommandTests {
    /// Starts `onthemap watch` and returns it with line readers of its stdout (the events) and
    /// its stderr (`live: watching …` each time a subscription is confirmed).
    static func startWatch(_ arguments: [String], dataHome: URL) throws -> (Process, LineReader, LineReader) {
        let process = Process()
        process.executableURL = ListCommandTests.binary
        process.arguments = ["watch"] + arguments
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ONTHEMAP_") }
        environment["XDG_DATA_HOME"] = dataHome.path
        environment["XDG_STATE_HOME"] = dataHome.appendingPathComponent("state").path
        environment["XDG_CONFIG_HOME"] = dataHome.appendingPathComponent("config").path
        process.environment = environment
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, LineReader(out.fileHandleForReading), LineReader(err.fileHandleForReading))
    }

    /// Waits for the next confirmed subscription: after it, every matching post is an event.
    /// (60 s only ends a test that would otherwise hang.)
    static func waitUntilLive(_ notes: LineReader) async -> Bool {
        while let line = await notes.next(within: 60) {
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
        let line = try #require(await lines.next(within: 60))
        #expect(line.contains(#""op":"create""#) && line.contains("Ada"))
        try await Self.post(server, firstName: "Grace", mapString: "Paris")  // not matched
        try await Self.post(server, firstName: "Alan", mapString: "Lisbon")
        let second = try #require(await lines.next(within: 60))
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
        #expect(await lines.next(within: 60)?.contains("Before") == true)
        first.terminate()
        // The same port and database again: watch reconnects by itself (1 s, then 2 s, …).
        let second = try await ServerProcess.start(database: database, arguments: ["--open-writes", "--port", "\(port)"])
        defer { second.terminate() }
        #expect(second.port == port)
        try #require(await Self.waitUntilLive(notes))
        try await Self.post(second, firstName: "After", mapString: "Lisbon")
        var after = await lines.next(within: 60)
        while let line = after, !line.contains("After") { after = await lines.next(within: 60) }
        #expect(after?.contains("After") == true)
    }

    static func post(_ server: ServerProcess, firstName: String, mapString: String) async throws {
        let reply = try await RawHTTP.send(
            "POST", server.baseURL, "/parse/classes/StudentLocation",
            json: #"{"uniqueKey":"k","firstName":"\#(firstName)","lastName":"L","mapString":"\#(mapString)","latitude":1,"longitude":2}"#)
        #expect(reply.status == 201)
    }
}

/// Lines of a pipe, read on a thread of their own.
final class LineReader: @unchecked Sendable {
    private let lock = NSCondition()
    private var lines: [String] = []

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                pending += data
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    lock.withLock {
                        lines.append(line)
                        lock.broadcast()
                    }
                }
            }
        }
    }

    /// The next line, or `nil` after `seconds`.
    func next(within seconds: Double) async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                let deadline = Date().addingTimeInterval(seconds)
                lock.lock()
                while lines.isEmpty, lock.wait(until: deadline) {}
                let line = lines.isEmpty ? nil : lines.removeFirst()
                lock.unlock()
                continuation.resume(returning: line)
            }
        }
    }
}
