import Foundation
import Logging
@_spi(WritePath) import ServerStorage

extension ClassWrites {
    /// Opens (and migrates) the database at `location` — a SQLite file, or a PostgreSQL URL
    /// through `postgres` — and hands back its reads and the one write path over it: the opened
    /// storage's writes never leave this target. For the operator's commands (`ServerDatabase`,
    /// in ServerAdmin, which cannot see `WritableStorage`); the server's wiring opens its own
    /// (`ServerApplication.openStorage`), to measure it before the write path holds it.
    package static func open(
        _ location: DatabaseLocation, queryTimeout: Duration, postgres: PostgresOpener?, logger: Logger, limits: FairShareLimits
    ) async throws -> (storage: any ServerStorage, writes: ClassWrites) {
        let opened = try await location.open(queryTimeout: queryTimeout, postgres: postgres, logger: logger)
        return (opened, ClassWrites(storage: opened, limits: limits))
    }
}
