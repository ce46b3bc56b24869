import Foundation
import Launcher
import ServerTestSupport
import Testing

/// Crashes and restarts of the real `onthemap-server` process.
@Suite(.serialized) struct DurabilityTests {
    static let total = 1000

    /// 1,000 concurrent POSTs, SIGKILL in the middle, restart: every post that was answered 201
    /// is there, whole, and nothing else is half there.
    @Test(arguments: TestBackend.available)
    func everyAcknowledgedPostSurvivesSIGKILL(backend: TestBackend) async throws {
        // Not beside a login flood: starved of threads, this test's acknowledgements come too late.
        try await HeavyTests.exclusively { try await postKillAndCheck(backend: backend) }
    }

    private func postKillAndCheck(backend: TestBackend) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try await backend.makeDatabase(in: directory)
        defer { Task { await backend.dropDatabase(database) } }

        let server = try await ServerProcess.start(database: database, arguments: ["--open-writes"])
        let base = server.baseURL
        // Pull the plug once a good share of the posts has been answered: the acknowledgement that
        // reaches the share sends SIGKILL itself (a polling task competed with the 1,000 request
        // tasks for the concurrency pool and could come too late, after every post was answered).
        let acknowledged = Acknowledgements(callingAt: Self.total / 3) { server.sendKill() }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<Self.total {
                group.addTask {
                    let body = #"{"uniqueKey":"k\#(index)","firstName":"F\#(index)","lastName":"L\#(index)","mapString":"post-\#(index)","mediaURL":"https://example.com/\#(index)","latitude":\#(Double(index % 180) - 89.5),"longitude":\#(Double(index % 360) - 179.5)}"#
                    guard let reply = try? await RawHTTP.send("POST", base, "/v1/StudentLocation", json: body), reply.status == 201,
                        let objectId = (reply.json() as? [String: Any])?["objectId"] as? String
                    else { return }
                    await acknowledged.add(index: index, objectId: objectId)
                }
            }
        }
        let status = server.waitForExit()
        let answered = await acknowledged.all
        #expect(answered.count >= Self.total / 3, "the server ended with \(status) before the kill; its log ends: \(server.logTail)")
        #expect(answered.count < Self.total, "the kill came before every post was answered")

        let restarted = try await ServerProcess.start(database: database, arguments: ["--open-writes"])
        defer { restarted.terminate() }
        let reply = try await RawHTTP.send("GET", restarted.baseURL, "/v1/StudentLocation?limit=1000")
        let rows = try #require(reply.results)
        var byId: [String: [String: Any]] = [:]
        for row in rows {
            if let objectId = row["objectId"] as? String { byId[objectId] = row }
        }
        for (index, objectId) in answered {
            let row = byId[objectId]
            #expect(row != nil, "post \(index) was answered 201 but is gone")
            #expect(row?["mapString"] as? String == "post-\(index)")
        }
        for row in rows {
            // No half-written row: every stored post has all its fields, consistent with its index.
            let place = try #require(row["mapString"] as? String)
            let index = try #require(Int(place.dropFirst("post-".count)))
            #expect(row["uniqueKey"] as? String == "k\(index)")
            #expect(row["firstName"] as? String == "F\(index)")
            #expect(row["lastName"] as? String == "L\(index)")
            #expect(row["mediaURL"] as? String == "https://example.com/\(index)")
            #expect(row["latitude"] as? Double == Double(index % 180) - 89.5)
            #expect(row["longitude"] as? Double == Double(index % 360) - 179.5)
        }
    }

    /// SIGTERM lets requests in flight finish: each request is either answered whole or refused
    /// at connect, and the process exits 0.
    @Test func sigtermDrainsInFlightRequests() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-term-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("server.sqlite").path
        let seed = try await LaunchedProcess.run(
            ProductBinary.url("onthemap-server"), ["seed", "--demo", "--database", database], output: .discard)
        try #require(seed.status == 0, "\(seed.stderr)")

        let server = try await ServerProcess.start(database: database)
        let outcomes = Acknowledgements()
        let firstFinisher = FirstFinisher()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<300 {
                group.addTask {
                    do {
                        let reply = try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation?limit=100&order=-updatedAt")
                        let complete = reply.results?.count == 100
                        if reply.status == 200 && complete { await outcomes.add(index: index, objectId: "ok") }
                    } catch {
                        await outcomes.add(index: index, objectId: "refused")
                    }
                    // Terminate in the middle: as soon as the first answer is in (however slowly
                    // a loaded machine got there), while the rest are still in flight.
                    if await firstFinisher.claim(finished: await outcomes.count) { server.sendTerminate() }
                }
            }
        }
        let status = server.waitForExit()
        #expect(status == 0)
        let all = await outcomes.all
        #expect(all.count == 300, "every request was answered whole or refused cleanly")
        #expect(all.contains { $0.1 == "ok" })
        let before = try #require(await firstFinisher.finishedAtSignal)
        #expect(before < 300, "SIGTERM came while requests were in flight")
    }
}

/// Picks the request that finishes first (it sends SIGTERM) and remembers how many had finished.
actor FirstFinisher {
    private(set) var finishedAtSignal: Int?

    /// `true` for the first caller only.
    func claim(finished: Int) -> Bool {
        guard finishedAtSignal == nil else { return false }
        finishedAtSignal = finished
        return true
    }
}

/// What the concurrent requests reported.
actor Acknowledgements {
    private(set) var all: [(Int, String)] = []
    var count: Int { all.count }
    private let threshold: Int?
    private let action: @Sendable () -> Void

    /// - Parameters:
    ///   - threshold: the number of acknowledgements at which `action` runs (once, inside `add`).
    init(callingAt threshold: Int? = nil, _ action: @escaping @Sendable () -> Void = {}) {
        self.threshold = threshold
        self.action = action
    }

    func add(index: Int, objectId: String) {
        all.append((index, objectId))
        if all.count == threshold { action() }
    }
}
