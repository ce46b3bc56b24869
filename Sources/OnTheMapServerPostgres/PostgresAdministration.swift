import Foundation

/// One statement on a connection of its own, outside any storage: what a test does behind the
/// server's back (`CREATE DATABASE`, an old schema).
package enum PostgresAdministration {
    package static func execute(_ sql: String, url: URL) async throws {
        let parameters = try PGParameters(url: url)
        try await PGSession.onThreadOfItsOwn {
            _ = try PGConnection(parameters).execute(PGQuery(unsafeSQL: sql))
        }
    }
}
