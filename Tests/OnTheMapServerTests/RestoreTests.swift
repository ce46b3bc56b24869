import ClassRules
import Foundation
import ServerStorage
import ServerTestSupport
import Testing

@testable import ServerAdmin

/// `onthemap-server restore` is an act of the one write path (Docs/Operations.md, "Backups"):
/// audited in the restored database, and every running instance drops what it read before —
/// the list cache, every LiveQuery socket — without a restart.
@Suite struct RestoreTests {
    /// A running server (its list cached for a minute, a socket subscribed with a session made
    /// after the backup): `restore --force` of the backup brings back exactly the backup's rows
    /// to the server's list, tells the socket to reconnect and closes it, ends the session the
    /// backup does not know (the one it knows still writes), and leaves one audit entry — the
    /// operator, the file, what it held — in the restored database.
    @Test func aRestoreUnderARunningServerIsAuditedAndReachesItsCacheAndSockets() async throws {
        let server = try await TestServer.start(listCacheSeconds: 60)
        defer { Task { await server.stop() } }
        let adaKey = try await server.addUser(email: "ada@example.com")
        let known = try await WriteRulesTests.logIn(server, "ada@example.com")
        let kept = try await AccessTests.post(server, key: adaKey, session: known, place: "Lisbon")
        let copy = server.directory.appendingPathComponent("backup.sqlite").path
        _ = try SQLiteBackup.backup(server.configuration, to: copy)

        let unknown = try await WriteRulesTests.logIn(server, "ada@example.com")
        let lost = try await AccessTests.post(server, key: adaKey, session: unknown, place: "Oslo")
        // Both rows, and now in the list cache.
        let before = try await poll(until: .now + .seconds(10), { try await Self.listed(server) }, isDone: { $0 == [kept, lost] })
        #expect(before == [kept, lost])
        let socket = try LiveQueryTestClient(port: server.server.port)
        socket.send(json: ["op": "connect", "sessionToken": unknown])
        #expect(await socket.next()?["op"] as? String == "connected")
        socket.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": [:]]])
        #expect(await socket.next()?["op"] as? String == "subscribed")

        let restored = try await SQLiteBackup.restore(server.configuration, from: copy, force: true)
        #expect(restored == SQLiteBackup.Contents(locations: 1, accounts: 1, sessions: 1))

        // The list: the backup's rows, without a restart, long before the cache's minute is up.
        let listed = try await poll(until: .now + .seconds(10), { try await Self.listed(server) }, isDone: { $0 == [kept] })
        #expect(listed == [kept])

        // The socket: told why and to come back, then closed.
        let told = try #require(await socket.next())
        #expect(told["op"] as? String == "error" && told["reconnect"] as? Bool == true, "\(told)")
        #expect((told["error"] as? String)?.contains("restored from a backup") == true, "\(told)")
        #expect(await socket.next() == nil)
        #expect(socket.closeCode == 1000 && socket.closeReason == "database restored")

        // The session the backup does not know writes nothing; the one it knows does.
        let refused = try await RawHTTP.send(
            "POST", server.baseURL, AccessTests.path, headers: AccessTests.bearer(unknown),
            json: WriteRulesTests.body(key: adaKey, replacing: [:]))
        #expect((refused.json() as? [String: Any])?["code"] as? Int == 209, "\(refused.status) \(refused.text)")
        _ = try await AccessTests.post(server, key: adaKey, session: known, place: "Porto")

        // A new socket with the ended session is refused; without one it follows the restored data.
        let again = try LiveQueryTestClient(port: server.server.port)
        again.send(json: ["op": "connect", "sessionToken": unknown])
        let refusedAgain = try #require(await again.next())
        #expect(refusedAgain["op"] as? String == "error" && refusedAgain["code"] as? Int == 209, "\(refusedAgain)")

        let audit = try await server.withDatabase { try await $0.auditLog(since: nil) }
        #expect(audit.count == 1)
        let entry = try #require(audit.last)
        #expect(entry.actor == "operator" && entry.action == "restore", "\(entry)")
        #expect(entry.target == URL(fileURLWithPath: copy).standardizedFileURL.path)
        #expect(entry.reason == "1 location, 1 account and 1 session")
    }

    /// A refused restore (the database is not empty, no --force) writes nothing: no row changes,
    /// no audit entry, and a server's socket stays open.
    @Test func aRefusedRestoreWritesNothing() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let copy = server.directory.appendingPathComponent("backup.sqlite").path
        _ = try SQLiteBackup.backup(server.configuration, to: copy)
        _ = try await server.addUser(email: "ada@example.com")
        let socket = try LiveQueryTestClient(port: server.server.port)
        socket.send(json: ["op": "connect"])
        #expect(await socket.next()?["op"] as? String == "connected")

        await #expect {
            try await SQLiteBackup.restore(server.configuration, from: copy, force: false)
        } throws: { error in
            "\(error)".contains("is not empty (0 locations, 1 account and 0 sessions)") && "\(error)".contains("--force")
        }
        #expect(try await server.withDatabase { try await $0.auditLog(since: nil) }.isEmpty)
        #expect(try await server.withDatabase { try await $0.users() }.count == 1)
        // Still open: it answers a subscription.
        socket.send(json: ["op": "subscribe", "requestId": 1, "query": ["className": "StudentLocation", "where": [:]]])
        #expect(await socket.next()?["op"] as? String == "subscribed")
    }

    /// PostgreSQL is restored with pg_restore: refused by the command before it opens anything
    /// (`BackupRefusalTests`), and by the storage itself, which writes nothing.
    @Test func postgresStorageRefusesARestore() async throws {
        guard TestBackend.postgresURL != nil else { return }
        let server = try await TestServer.start(backend: .postgres)
        defer { Task { await server.stop() } }
        _ = try await server.addUser(email: "ada@example.com")
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-never-\(UUID().uuidString).sqlite").path
        await #expect(throws: RestoreUnsupported.self) {
            try await server.withDatabase { try await $0.restore(from: copy, force: true) }
        }
        #expect(try await server.withDatabase { try await $0.auditLog(since: nil) }.isEmpty)
        #expect(try await server.withDatabase { try await $0.users() }.count == 1)
    }

    static func listed(_ server: TestServer) async throws -> Set<String> {
        let reply = try await RawHTTP.send("GET", server.baseURL, "/parse/classes/StudentLocation?limit=100&order=-updatedAt")
        return Set((reply.results ?? []).compactMap { $0["objectId"] as? String })
    }
}
