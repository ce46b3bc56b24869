/// The database cannot be reached now (PostgreSQL stopped, restarting, or refusing connections):
/// not the request's fault and not a bug, so the API answers 503 with `Retry-After`, not 500.
package struct StorageUnavailable: Error, CustomStringConvertible {
    /// What the database driver said, for the log (no statement, no values).
    package var detail: String

    package init(detail: String) { self.detail = detail }

    package var description: String { "the database is unavailable (\(detail))" }
}

/// An error of a storage backend that can say what may be logged of it: its code, never the
/// statement or the values a request put in it.
package protocol LoggableStorageError: Error {
    var loggableDescription: String { get }
}
