import ArgumentParser
import Foundation
import OnTheMapServer
import ServerAdmin

extension OnTheMapServerCommand {
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the SQLite database to a file while the server keeps serving.",
            discussion: """
                SQLite's online backup: one consistent copy of the live database, taken in a read \
                transaction that never blocks the server's writes. The file is mode 0600, written beside \
                FILE and renamed into place once complete and checked (PRAGMA integrity_check). For a \
                PostgreSQL database use pg_dump (Docs/Operations.md).
                """)

        @Option(help: ArgumentHelp("The backup file to write (replaced if it exists).", valueName: "file")) var to: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            do {
                let contents = try SQLiteBackup.backup(database.configuration, to: to)
                print("Backed up \(contents) to \(to).")
            } catch let refusal as SQLiteBackup.Refusal {
                throw ValidationError(refusal.description)
            }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the SQLite database with a backup file, while the server runs or not.",
            discussion: """
                The file must open, pass PRAGMA integrity_check and have onthemap-server's tables. A \
                database that holds any location or account is replaced only with --force. The backup is \
                migrated to this version, audited (operator, the file, what it holds) and copied in with \
                one write; every running server then drops its caches and closes its LiveQuery sockets \
                (clients reconnect). For PostgreSQL use pg_restore (Docs/Operations.md).
                """)

        @Option(help: ArgumentHelp("The backup file to restore.", valueName: "file")) var from: String
        @Flag(help: "Replace a database that is not empty.") var force = false
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            do {
                let contents = try await SQLiteBackup.restore(database.configuration, from: from, force: force)
                print("Restored \(contents) from \(from) into \(database.configuration.database).")
            } catch let refusal as SQLiteBackup.Refusal {
                throw ValidationError(refusal.description)
            }
        }
    }
}
