import Foundation
import ServerStorage
import PostgresNIO

/// The change log on PostgreSQL (`ChangeLogSQL.postgres`).
extension PostgresStorage {
    func changeLogEnd() async throws -> Int64 {
        for try await (end) in try await client.query(PostgresQuery(unsafeSQL: ChangeLogSQL.end), logger: logger).decode(Int64.self) {
            return end
        }
        return 0
    }

    func changeLog(after seq: Int64, missing: [Int64], limit: Int) async throws -> [LoggedChange] {
        var binds = PostgresBindings()
        binds.append(seq)
        for number in missing { binds.append(number) }
        binds.append(limit)
        let sql = ChangeLogSQL.entries(missing: missing.count) { "$\($0)" }
        var entries: [LoggedChange] = []
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        for try await (seq, kind, subject, before, after) in rows.decode((Int64, String, String, String?, String?).self) {
            if let entry = LoggedChange(seq: seq, kind: kind, subject: subject, before: before, after: after) { entries.append(entry) }
        }
        return entries
    }

    func pruneChangeLog(before: Double) async throws {
        var binds = PostgresBindings()
        binds.append(before)
        try await client.query(PostgresQuery(unsafeSQL: ChangeLogSQL.prune { "$\($0)" }, binds: binds), logger: logger)
    }

    /// Listens on the log's channel, which every logging transaction of every instance (and of
    /// every `onthemap-server` command) notifies at commit. While the listening connection is down
    /// (PostgreSQL restarting) nothing is heard: it reconnects every second and signals once when
    /// it does, for what was logged meanwhile.
    func observeChangeLog(_ signal: @escaping @Sendable () -> Void) {
        let task = Task { [client, logger] in
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: ChangeLogSQL.channel) { notifications in
                            signal()
                            for try await _ in notifications { signal() }
                        }
                    }
                } catch {
                    if Task.isCancelled { break }
                    logger.warning(
                        "not listening for the change log's notifications; retrying in 1 s",
                        metadata: ["error": "\(String(describing: type(of: error)))"])
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        changeListener.withLockedValue { previous in
            previous?.cancel()
            previous = task
        }
    }
}
