import Foundation
import GRDB
import NIOConcurrencyHelpers

/// The change log on SQLite (`ChangeLogSQL.sqlite`).
extension SQLiteStorage {
    public func changeLogEnd() async throws -> Int64 {
        try await pool.read { db in try Int64.fetchOne(db, sql: ChangeLogSQL.end) ?? 0 }
    }

    public func changeLog(after seq: Int64, missing: [Int64], limit: Int) async throws -> [LoggedChange] {
        try await pool.read { db in
            let sql = ChangeLogSQL.entries(missing: missing.count) { _ in "?" }
            let arguments = StatementArguments([seq.databaseValue] + missing.map(\.databaseValue) + [limit.databaseValue])
            return try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap {
                LoggedChange(seq: $0[0], kind: $0[1], subject: $0[2], before: $0[3], after: $0[4])
            }
        }
    }

    public func pruneChangeLog(before: Double) async throws {
        try await pool.write { db in try db.execute(sql: ChangeLogSQL.prune { _ in "?" }, arguments: [before]) }
    }

    /// Signals after each commit of this process that wrote a table the log's triggers watch (a
    /// GRDB transaction observer on the one writer connection). Other processes' commits are
    /// not seen here: `ChangeLogFollower` polls for those.
    public func observeChangeLog(_ signal: @escaping @Sendable () -> Void) {
        pool.add(transactionObserver: ChangeLogCommitObserver(signal), extent: .databaseLifetime)
    }
}

/// Notes whether a transaction wrote a watched table, and signals when it commits.
private final class ChangeLogCommitObserver: TransactionObserver, @unchecked Sendable {
    static let tables: Set<String> = ["student_location", "account", "session"]
    private let signal: @Sendable () -> Void
    /// Touched on the writer connection's queue only.
    private var wrote = false

    init(_ signal: @escaping @Sendable () -> Void) { self.signal = signal }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        switch eventKind {
        case .insert(let table), .delete(let table), .update(let table, _): return Self.tables.contains(table)
        }
    }

    func databaseDidChange(with event: DatabaseEvent) {
        wrote = true
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        if wrote { signal() }
        wrote = false
    }

    func databaseDidRollback(_ db: Database) { wrote = false }
}
