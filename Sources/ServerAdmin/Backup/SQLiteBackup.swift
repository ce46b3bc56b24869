import Foundation
import GRDB
import ServerConfig
import ServerStorage
import UserFiles

#if canImport(Glibc)
    import Glibc
#endif

/// `onthemap-server backup` and `restore` for a SQLite database, through SQLite's online backup
/// API (GRDB's `backup(to:)`): the copy is taken in one read transaction of the live file, so it
/// is consistent, and in WAL mode a reader never blocks the server's writer, so the server keeps
/// serving. A PostgreSQL database is refused with a sentence naming `pg_dump` / `pg_restore`.
public enum SQLiteBackup {
    /// What a database file holds (the counts the storage's restore reports too).
    public typealias Contents = DatabaseCounts

    /// A refusal, worded for the operator.
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    /// The tables a file must have to be one of ours.
    static let schemaTables = ["student_location", "account", "session"]

    /// Copies the database `configuration` names into `path` (a new file, mode 0600, written
    /// beside `path` and renamed into place once complete and checked, so `path` is never a half
    /// copy), then checks the copy as `restore` would. Returns what the copy holds.
    public static func backup(_ configuration: ServerConfiguration, to path: String) throws -> Contents {
        let source = try sqlitePath(
            configuration,
            refusal: "a PostgreSQL database is backed up with pg_dump, not this command: "
                + "pg_dump --format=custom --file=onthemap.dump \"$DATABASE_URL\" (Docs/Operations.md, Backups).")
        guard FileManager.default.fileExists(atPath: source) else { throw Refusal(description: "No database at \(source).") }
        let target = URL(fileURLWithPath: path).standardizedFileURL
        if sameFile(target.path, source) {
            throw Refusal(description: "\(path) is the database itself; back it up to another file.")
        }
        // The copy is a file for the user (`PrivateFile`: 0600 whatever the umask, made with
        // O_EXCL and O_NOFOLLOW beside `path`); SQLite writes into it by its path, and `commit`
        // syncs it and renames it over `path` (backups rotate onto one name). Never committed,
        // it is removed.
        let copyFile: PrivateFile
        do {
            copyFile = try PrivateFile(at: target.path, replacing: true)
        } catch {
            throw Refusal(description: "Cannot write \(target.deletingLastPathComponent().path): \(error).")
        }
        let partial = copyFile.temporaryPath
        let live = try DatabaseQueue(path: source, configuration: readOnly())
        let copy = try DatabaseQueue(path: partial)
        try live.backup(to: copy)
        try live.close()
        // The live file is in WAL mode and the copy took its header: make the copy one
        // self-contained file.
        try copy.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
        try copy.close()
        let contents = try check(partial)
        do {
            try copyFile.commit()
        } catch {
            throw Refusal(description: "Cannot put the copy in place of \(target.path): \(error).")
        }
        try? sync(target.deletingLastPathComponent().path)
        return contents
    }

    /// Checks that `path` is a whole database of ours: it opens, passes `PRAGMA integrity_check`
    /// and has our tables. Returns what it holds.
    public static func check(_ path: String) throws -> Contents {
        guard FileManager.default.fileExists(atPath: path) else { throw Refusal(description: "No file at \(path).") }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: readOnly())
        } catch {
            throw Refusal(description: "\(path) cannot be opened as a SQLite database: \(reason(error)).")
        }
        defer { try? queue.close() }
        return try queue.read { db in
            let verdict: [String]
            do {
                verdict = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            } catch {
                throw Refusal(description: "\(path) is not a SQLite database: \(reason(error)).")
            }
            guard verdict == ["ok"] else {
                throw Refusal(description: "\(path) fails SQLite's integrity check: \(verdict.first ?? "no answer").")
            }
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            let missing = schemaTables.filter { !tables.contains($0) }
            guard missing.isEmpty else {
                throw Refusal(
                    description: "\(path) is a SQLite database but not an onthemap-server one "
                        + "(no \(missing.joined(separator: " or ")) table).")
            }
            return try DatabaseCounts(db)
        }
    }

    /// Replaces the database `configuration` names with the backup at `path`, after checking the
    /// backup (`check`); a database that holds a location or an account only when `force`. The
    /// replacing is an act of the one write path (`ServerDatabase.restore`, the operator's permit):
    /// the backup is brought to this version's schema, audited and given the change log's
    /// `reload` entry before its pages go in, so running servers drop their caches and LiveQuery
    /// sockets. Returns what the database now holds.
    public static func restore(_ configuration: ServerConfiguration, from path: String, force: Bool) async throws
        -> Contents
    {
        let target = try sqlitePath(
            configuration,
            refusal: "a PostgreSQL database is restored with pg_restore, not this command: "
                + "pg_restore --clean --if-exists --no-owner --dbname=\"$DATABASE_URL\" onthemap.dump "
                + "(Docs/Operations.md, Backups).")
        _ = try check(path)
        if sameFile(path, target) { throw Refusal(description: "\(path) is the database itself.") }
        // Opened through the server's own storage: an absent database is created with the
        // folder's and file's modes and the schema, and counts as empty.
        let database = try await ServerDatabase.open(configuration)
        let outcome: RestoreOutcome
        do {
            outcome = try await database.restore(from: URL(fileURLWithPath: path).standardizedFileURL.path, force: force)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
        switch outcome {
        case .notEmpty(let before):
            throw Refusal(
                description: "\(target) is not empty (\(before)); restoring would replace it. "
                    + "Back it up if it matters, then run restore again with --force.")
        case .restored:
            return try check(target)
        }
    }

    // MARK: -

    private static func sqlitePath(_ configuration: ServerConfiguration, refusal: String) throws -> String {
        switch configuration.database {
        case .sqlite(let path): return path
        case .postgres: throw Refusal(description: refusal.prefix(1).uppercased() + refusal.dropFirst())
        }
    }

    private static func readOnly() -> Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        return configuration
    }

    private static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Refusal(description: "Cannot open \(path) to sync it.") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Refusal(description: "Cannot sync \(path) to disk.") }
    }

    private static func reason(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? String(describing: error)
    }
}
