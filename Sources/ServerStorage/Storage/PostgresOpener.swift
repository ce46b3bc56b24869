import Foundation
import Logging

/// Opens a PostgreSQL database for a core that links no PostgreSQL client.
///
/// The `OnTheMapServerPostgres` target supplies the working one (`PostgresOpener.live`), and only
/// `onthemap-server` and the server tests link that target: the terminal app's built-in server
/// builds and links SQLite alone. A configuration without an opener refuses a `postgres://` URL
/// with `StorageOpenError.postgresNotLinked`. Any target may hold one (a configuration does); only
/// a file that sees the storages' writes (`@_spi(WritePath)`) may make one or call its `open`.
public struct PostgresOpener: Sendable {
    /// Connects to `url` (the caller migrates the storage).
    @_spi(WritePath)
    public let open: @Sendable (_ url: URL, _ queryTimeout: Duration, _ logger: Logger) throws -> any WritableStorage

    @_spi(WritePath)
    public init(open: @escaping @Sendable (_ url: URL, _ queryTimeout: Duration, _ logger: Logger) throws -> any WritableStorage) {
        self.open = open
    }
}

/// Why the configured database could not be opened before any connection was tried.
public enum StorageOpenError: Error, CustomStringConvertible, Equatable {
    /// A PostgreSQL URL, in a program built without PostgreSQL storage.
    case postgresNotLinked(String)

    public var description: String {
        switch self {
        case .postgresNotLinked(let location):
            return "This program cannot open PostgreSQL databases (\(location)): only onthemap-server links "
                + "PostgreSQL storage. Give a SQLite file path, or run onthemap-server."
        }
    }
}
