@_spi(WritePath) import ServerStorage

extension PostgresOpener {
    /// Storage on PostgreSQL through libpq: what `onthemap-server` and the server tests use.
    package static let live = PostgresOpener { url, queryTimeout, logger in
        try PostgresStorage(url: url, queryTimeout: queryTimeout, logger: logger)
    }
}
