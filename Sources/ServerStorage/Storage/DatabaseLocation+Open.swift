import Foundation
import Logging

extension DatabaseLocation {
    /// Opens the database — a SQLite file, or a PostgreSQL URL through `postgres` (which only
    /// `onthemap-server` links) — and migrates it. SPI, like the storage it returns: the wiring
    /// (`ServerApplication.openStorage`) and the write path (`ClassWrites.open`, for the operator's
    /// commands) call it and hand the storage to `ClassWrites`.
    /// `sqliteReaders` caps a SQLite file's reading connections (nil: GRDB's default of 5).
    @_spi(WritePath)
    public func open(queryTimeout: Duration, postgres: PostgresOpener?, logger: Logger, sqliteReaders: Int? = nil)
        async throws -> any WritableStorage
    {
        let storage: any WritableStorage
        switch self {
        case .sqlite(let path): storage = try SQLiteStorage(path: path, queryTimeout: queryTimeout, maximumReaders: sqliteReaders)
        case .postgres(let url):
            guard let postgres else { throw StorageOpenError.postgresNotLinked(description) }
            storage = try postgres.open(url, queryTimeout, logger)
        }
        do {
            try await storage.migrate()
            for collision in try await storage.migrateEmailKeys() {
                logger.warning("e-mail collision: \(collision)")
            }
        } catch {
            await storage.close()
            throw error
        }
        return storage
    }
}
