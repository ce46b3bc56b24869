import Foundation
import ServerTestSupport
import Testing

/// `onthemap`, built-in server included, links no PostgreSQL client, TLS stack or crypto library:
/// only `onthemap-server` links `OnTheMapServerPostgres`. A Swift module's name stays in the type
/// metadata of a binary that links it, stripped or not; `onthemap-server` is the control.
@Suite struct LinkedLibrariesTests {
    static func binary(_ name: String) throws -> Data {
        try Data(contentsOf: ProductBinary.url(name), options: .alwaysMapped)
    }

    @Test func theAppLinksNoPostgresTLSOrCrypto() throws {
        let app = try Self.binary("onthemap")
        for module in ["PostgresNIO", "NIOSSL", "CCryptoBoringSSL"] {
            #expect(app.range(of: Data(module.utf8)) == nil, "onthemap links \(module)")
        }
        #expect(try Self.binary("onthemap-server").range(of: Data("PostgresNIO".utf8)) != nil)
    }
}
