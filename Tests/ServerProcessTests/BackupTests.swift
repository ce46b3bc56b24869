import Foundation
import GRDB
import Launcher
import ServerTestSupport
import Testing

/// `onthemap-server backup` and `restore` as an operator runs them, against a real server process.
@Suite(.serialized) struct BackupTests {
    static let total = 200
    /// The acknowledgement that starts the backup: posts before it must be in the copy.
    static let backupAt = 50

    /// 200 concurrent POSTs; when the 50th 201 arrives, `backup` starts while the rest go on. The
    /// copy opens, passes `PRAGMA integrity_check` and holds every row acknowledged before the
    /// backup began; `restore` refuses the live, non-empty database, restores into an empty one,
    /// and a server started on that serves every one of those rows.
    @Test func aBackupDuringPostsHoldsEveryAcknowledgedRowAndRestores() async throws {
        try await HeavyTests.exclusively { try await backupDuringPosts() }
    }

    private func backupDuringPosts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = directory.appendingPathComponent("live.sqlite").path
        let copy = directory.appendingPathComponent("backups/class.sqlite").path
        try FileManager.default.createDirectory(
            atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)

        // --open-writes: the legacy mode has no per-account row or rate limits to run into.
        let server = try await ServerProcess.start(database: live, arguments: ["--open-writes"])
        defer { server.terminate() }
        let race = BackupRace(at: Self.backupAt, arguments: ["backup", "--to", copy, "--database", live])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<Self.total {
                group.addTask {
                    let body = #"{"uniqueKey":"k\#(index)","firstName":"F\#(index)","lastName":"L\#(index)","mapString":"post-\#(index)","mediaURL":"https://example.com/\#(index)","latitude":\#(Double(index % 180) - 89.5),"longitude":\#(Double(index % 360) - 179.5)}"#
                    guard let reply = try? await RawHTTP.send("POST", server.baseURL, "/v1/StudentLocation", json: body),
                        reply.status == 201, let objectId = (reply.json() as? [String: Any])?["objectId"] as? String
                    else { return }
                    await race.acknowledged(objectId)
                }
            }
        }
        // The server kept serving: every post was answered 201, before, during and after the copy.
        #expect(await race.count == Self.total)
        let before = try #require(await race.beforeBackup)
        #expect(before.count == Self.backupAt)
        let backup = try #require(await race.backup)
        let (status, stdout, stderr) = await backup.finish()
        #expect(status == 0, "\(stderr)")
        #expect(stdout.hasPrefix("Backed up "), "\(stdout)")

        // The file: 0600, one self-contained SQLite file that passes the integrity check and holds
        // every row acknowledged before the backup began.
        let mode = try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        var readOnly = Configuration()
        readOnly.readonly = true
        let file = try DatabaseQueue(path: copy, configuration: readOnly)
        let (verdict, stored) = try await file.read { db in
            (try String.fetchAll(db, sql: "PRAGMA integrity_check"),
             Set(try String.fetchAll(db, sql: "SELECT object_id FROM student_location")))
        }
        try file.close()
        #expect(verdict == ["ok"])
        #expect(before.isSubset(of: stored), "\(before.subtracting(stored).count) acknowledged rows missing")
        #expect(stored.count >= Self.backupAt && stored.count <= Self.total)

        // Restore refuses the live database (it is not empty) …
        let refused = try await Self.serverCommand(["restore", "--from", copy, "--database", live])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("is not empty (\(Self.total) locations"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--force"))

        // … and brings the copy back into an empty one, saying what it restored.
        let restoredPath = directory.appendingPathComponent("restored/server.sqlite").path
        let restored = try await Self.serverCommand(["restore", "--from", copy, "--database", restoredPath])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.hasPrefix("Restored \(stored.count) locations"), "\(restored.stdout)")

        let again = try await ServerProcess.start(database: restoredPath, arguments: ["--open-writes"])
        defer { again.terminate() }
        let reply = try await RawHTTP.send("GET", again.baseURL, "/v1/StudentLocation?limit=1000")
        let rows = try #require(reply.results)
        let served = Set(rows.compactMap { $0["objectId"] as? String })
        #expect(served == stored)
        #expect(before.isSubset(of: served))
        for row in rows {
            let place = try #require(row["mapString"] as? String)
            let index = try #require(Int(place.dropFirst("post-".count)))
            #expect(row["uniqueKey"] as? String == "k\(index)")
            #expect(row["mediaURL"] as? String == "https://example.com/\(index)")
        }
    }

    /// `onthemap-server ARGUMENTS` to its end, blocking no thread.
    static func serverCommand(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await RunningCommand(arguments).finish()
    }
}

/// A short `onthemap-server` command started now and waited for later.
struct RunningCommand: Sendable {
    let process: LaunchedProcess

    init(_ arguments: [String]) throws {
        process = try LaunchedProcess.start(ProductBinary.url("onthemap-server"), arguments)
    }

    /// Waits for the exit, blocking no thread; the status and what it printed.
    func finish() async -> (status: Int32, stdout: String, stderr: String) {
        let result = await process.finished()
        return (result.status, result.stdout, result.stderr)
    }
}

/// Counts the acknowledged posts; the `at`-th starts the backup, and the rows acknowledged until
/// then are the ones the copy must hold.
actor BackupRace {
    private var acknowledgedIds: [String] = []
    private(set) var beforeBackup: Set<String>?
    private(set) var backup: RunningCommand?
    private let threshold: Int
    private let arguments: [String]

    var count: Int { acknowledgedIds.count }

    init(at threshold: Int, arguments: [String]) {
        self.threshold = threshold
        self.arguments = arguments
    }

    func acknowledged(_ objectId: String) {
        acknowledgedIds.append(objectId)
        guard acknowledgedIds.count == threshold else { return }
        beforeBackup = Set(acknowledgedIds)
        backup = try? RunningCommand(arguments)
    }
}
