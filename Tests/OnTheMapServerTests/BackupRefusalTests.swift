import Foundation
import GRDB
import ServerConfig
import ServerTestSupport
import Testing

@testable import OnTheMapServer
@testable import ServerAdmin
@testable import ServerHTTP

/// `SQLiteBackup` on real SQLite files: the copy's form, and every refusal worded for the
/// operator. (The copy taken under load, and a server on the restored file: `BackupTests`.)
@Suite struct BackupRefusalTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aBackupIsOneCheckedFileOfModeSixHundred() async throws {
        let server = try await TestServer.start()
        _ = try await server.addUser(email: "ada@example.com")
        let seeded = try await server.withDatabase { try await $0.seedDemo() }
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("copy.sqlite").path
        #expect(FileManager.default.createFile(atPath: copy, contents: Data("an older backup".utf8)))

        let contents = try SQLiteBackup.backup(server.configuration, to: copy)
        #expect(contents == SQLiteBackup.Contents(locations: seeded.locationsAdded, accounts: 2, sessions: 0))
        #expect(contents.description == "\(seeded.locationsAdded) locations, 2 accounts and 0 sessions")
        let mode = try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        // One file: no -wal beside it, no partial copy left behind, not in WAL mode.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["copy.sqlite"])
        var readOnly = Configuration()
        readOnly.readonly = true
        let journal = try await DatabaseQueue(path: copy, configuration: readOnly).read {
            try String.fetchOne($0, sql: "PRAGMA journal_mode")
        }
        #expect(journal == "delete")
        #expect(try SQLiteBackup.check(copy) == contents)
        await server.stop()
    }

    @Test func postgresIsSentToPgDumpAndPgRestoreWithoutThePassword() async throws {
        let configuration = ServerConfiguration(databasePath: "postgres://onthemap:secret@127.0.0.1:1/onthemap")
        let backup = #expect(throws: SQLiteBackup.Refusal.self) {
            try SQLiteBackup.backup(configuration, to: "/tmp/never.dump")
        }
        #expect(backup?.description.hasPrefix("A PostgreSQL database is backed up with pg_dump") == true)
        #expect(backup?.description.contains("Docs/Operations.md") == true)
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try await TestServer.start()
        let copy = directory.appendingPathComponent("copy.sqlite").path
        _ = try SQLiteBackup.backup(source.configuration, to: copy)
        await source.stop()
        let restore = await #expect(throws: SQLiteBackup.Refusal.self) {
            try await SQLiteBackup.restore(configuration, from: copy, force: true)
        }
        #expect(restore?.description.contains("pg_restore") == true)
        #expect(backup?.description.contains("secret") == false && restore?.description.contains("secret") == false)
    }

    @Test func restoreChecksTheFileAndWillNotReplaceAClassWithoutForce() async throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = ServerConfiguration(databasePath: directory.appendingPathComponent("live/server.sqlite").path)
        func refusal(_ file: String, force: Bool = false) async -> String {
            do {
                _ = try await SQLiteBackup.restore(target, from: file, force: force)
                return "restored"
            } catch {
                return (error as? SQLiteBackup.Refusal)?.description ?? "\(error)"
            }
        }
        let missing = directory.appendingPathComponent("missing.sqlite").path
        #expect(await refusal(missing) == "No file at \(missing).")
        let garbage = directory.appendingPathComponent("garbage.sqlite").path
        #expect(FileManager.default.createFile(atPath: garbage, contents: Data(repeating: 0x41, count: 8192)))
        let notSQLite = await refusal(garbage)
        #expect(notSQLite.hasPrefix(garbage) && notSQLite.contains("file is not a database"), "\(notSQLite)")
        let foreign = directory.appendingPathComponent("foreign.sqlite").path
        try await DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE account (key TEXT)") }
        #expect(
            await refusal(foreign)
                == "\(foreign) is a SQLite database but not an onthemap-server one (no student_location or session table).")

        // A class with one account: refused without --force, replaced with it.
        let source = try await TestServer.start()
        _ = try await source.withDatabase { try await $0.seedDemo() }
        let copy = directory.appendingPathComponent("copy.sqlite").path
        let backedUp = try SQLiteBackup.backup(source.configuration, to: copy)
        await source.stop()
        #expect(try await SQLiteBackup.restore(target, from: copy, force: false) == backedUp)  // empty: no --force needed
        let live = try await ServerDatabase.open(target)
        _ = try await live.addUser(email: "new@example.com", password: "correct horse", firstName: "N", lastName: "U")
        await live.close()
        let refused = await refusal(copy)
        #expect(refused.hasPrefix("\(target.databasePath) is not empty (\(backedUp.locations) locations, 2 accounts"))
        #expect(refused.hasSuffix("then run restore again with --force."))
        #expect(await refusal(copy, force: true) == "restored")
        #expect(try SQLiteBackup.check(target.databasePath).accounts == 1)
    }

    @Test func backupRefusesToWriteOverTheDatabaseItself() async throws {
        let server = try await TestServer.start()
        let error = #expect(throws: SQLiteBackup.Refusal.self) {
            try SQLiteBackup.backup(server.configuration, to: server.configuration.databasePath)
        }
        #expect(error?.description.hasSuffix("is the database itself; back it up to another file.") == true)
        #expect(try SQLiteBackup.check(server.configuration.databasePath).locations == 0)
        await server.stop()
    }
}
