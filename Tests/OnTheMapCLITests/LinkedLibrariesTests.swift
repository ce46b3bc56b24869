import Foundation
import ServerTestSupport
import Testing

/// `onthemap`, built-in server included, links no PostgreSQL client, HTTP client of NIO, TLS stack
/// or crypto library: only `onthemap-server` links `OnTheMapServerPostgres` and
/// `OnTheMapServerProviderClient`. A Swift module's name stays in the type
/// metadata of a binary that links it, stripped or not; `onthemap-server` is the control.
@Suite struct LinkedLibrariesTests {
    static func binary(_ name: String) throws -> Data {
        try Data(contentsOf: ProductBinary.url(name), options: .alwaysMapped)
    }

    @Test func theAppLinksNoPostgresTLSOrCrypto() throws {
        let app = try Self.binary("onthemap")
        for module in ["PostgresNIO", "AsyncHTTPClient", "NIOSSL", "CCryptoBoringSSL"] {
            #expect(app.range(of: Data(module.utf8)) == nil, "onthemap links \(module)")
        }
        let server = try Self.binary("onthemap-server")
        #expect(server.range(of: Data("PostgresNIO".utf8)) != nil)
        #expect(server.range(of: Data("AsyncHTTPClient".utf8)) != nil)
    }
}
