import ServerStorage

extension ServerConfiguration {
    /// `databasePath` read as a location: a SQLite path or a PostgreSQL URL.
    public var database: DatabaseLocation { DatabaseLocation(databasePath) }
}
