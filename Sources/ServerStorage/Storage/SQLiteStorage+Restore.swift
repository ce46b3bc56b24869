import Foundation
import GRDB

/// `restore` on SQLite, through SQLite's backup API (GRDB's `backup(to:)`), the page copy kept
/// inside the storage like every other write (Docs/Operations.md, "Backups").
extension SQLiteStorage {
    public func restore(from path: String, replacingNonEmpty: Bool, audit: @Sendable (DatabaseCounts) -> AuditEntry)
        async throws -> RestoreOutcome
    {
        let current = try await pool.read { try DatabaseCounts($0) }
        if !replacingNonEmpty, current.locations > 0 || current.accounts > 0 { return .notEmpty(current) }
        // The backup is staged beside the database (same folder and disk, mode 0600), made this
        // version's there, and given its audit entry and the log's `reload` entry; only then do
        // its pages replace the database's, in one write transaction of the live file.
        let live = URL(fileURLWithPath: pool.path)
        let staging = live.deletingLastPathComponent()
            .appendingPathComponent(".\(live.lastPathComponent).restore-\(RandomID.alphanumeric(10))").path
        guard FileManager.default.createFile(atPath: staging, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: staging])
        }
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: staging + suffix) }
        }
        var readOnly = Configuration()
        readOnly.readonly = true
        readOnly.busyMode = .timeout(10)
        let backup = try DatabaseQueue(path: path, configuration: readOnly)
        let stage = try DatabaseQueue(path: staging)
        do {
            try backup.backup(to: stage)
            try backup.close()
            try await stage.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
            // A backup from an older version gets this version's schema before it goes live.
            try Self.migrator.migrate(stage)
            _ = try await stage.write { try Self.migrateEmailKeys($0) }
            // The reload entry's number: above every number a follower may have read in the live
            // log (read as late as can be) and above the backup's own.
            let liveEnd = try await pool.read { try Int64.fetchOne($0, sql: ChangeLogSQL.end) ?? 0 }
            let restored = try await stage.write { db in
                let stagedEnd = try Int64.fetchOne(db, sql: ChangeLogSQL.end) ?? 0
                let seq = max(liveEnd, stagedEnd) + ChangeLogSQL.reloadMargin
                let reload = ChangeLogSQL.reload({ _ in "?" }, now: ChangeLogSQL.sqliteNowExpression)
                try db.execute(sql: reload[0])
                try db.execute(sql: reload[1], arguments: [seq])
                let counts = try DatabaseCounts(db)
                try Self.insert(audit(counts), db)
                return counts
            }
            // The act: every page of the staged file over the live one, in one write transaction.
            try stage.backup(to: pool)
            try stage.close()
            return .restored(restored)
        } catch {
            try? backup.close()
            try? stage.close()
            throw error
        }
    }
}

extension DatabaseCounts {
    /// What the SQLite database `db` holds (it has this version's tables): also what `backup`
    /// and `restore` report. Not on `SQLiteStorage`, which is SPI, so that the operator's
    /// `backup` (ServerAdmin, which cannot see `SQLiteStorage`) counts a backup's rows with it.
    package init(_ db: Database) throws {
        func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
        self.init(locations: try count("student_location"), accounts: try count("account"), sessions: try count("session"))
    }
}
