import Foundation
import ServerStorage

/// The change log on PostgreSQL (`ChangeLogSQL.postgres`).
extension PostgresStorage {
    func changeLogEnd() async throws -> Int64 {
        try await pool.execute(PGQuery(unsafeSQL: ChangeLogSQL.end)).first?.int64(0) ?? 0
    }

    func changeLog(after seq: Int64, missing: [Int64], limit: Int) async throws -> [LoggedChange] {
        let binds: [PGValue] = [.integer(seq)] + missing.map { .integer($0) } + [.integer(Int64(limit))]
        let sql = ChangeLogSQL.entries(missing: missing.count) { "$\($0)" }
        return try await pool.execute(PGQuery(unsafeSQL: sql, binds: binds)).rows.compactMap { row in
            LoggedChange(
                seq: try row.int64(0), kind: try row.text(1), subject: try row.text(2), before: try row.optionalText(3),
                after: try row.optionalText(4))
        }
    }

    func pruneChangeLog(before: Double) async throws {
        try await pool.execute(PGQuery(unsafeSQL: ChangeLogSQL.prune { "$\($0)" }, binds: [.real(before)]))
    }

    /// Listens on the log's channel, which every logging transaction of every instance (and of
    /// every `onthemap-server` command) notifies at commit (`PGListener`: a connection and a
    /// thread of its own; it signals once when it starts listening and again after every
    /// reconnection, for what was logged meanwhile).
    func observeChangeLog(_ signal: @escaping @Sendable () -> Void) {
        let listener = PGListener(parameters: pool.parameters, channel: ChangeLogSQL.channel, logger: logger, signal: signal)
        let previous = changeListener.withLockedValue { current in
            defer { current = listener }
            return current
        }
        previous?.stop()
    }
}
