import Foundation

/// One statement on a connection of its own, outside any storage: what a test does behind the
/// server's back (`CREATE DATABASE`, an old schema). Any SQL, writes included, so it is SPI like
/// the storages' writes: only a file that imports this target with `@_spi(WritePath)` (the tests'
/// `TestServer`) sees it; `onthemap-server`, which links this target, does not.
@_spi(WritePath) public enum PostgresAdministration {
    public static func execute(_ sql: String, url: URL) async throws {
        let parameters = try PGParameters(url: url)
        try await PGSession.onThreadOfItsOwn {
            _ = try PGConnection(parameters).execute(PGQuery(unsafeSQL: sql))
        }
    }
}
