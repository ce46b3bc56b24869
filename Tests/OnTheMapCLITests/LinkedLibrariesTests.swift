import Foundation
import Launcher
import ServerTestSupport
import Testing

/// `onthemap`, built-in server included, links no PostgreSQL client, TLS stack or crypto library:
/// only `onthemap-server` links `OnTheMapServerPostgres` (and libpq). Neither compiles a TLS or
/// crypto stack of its own (BoringSSL): `https://` goes through the system's libcurl, PostgreSQL
/// through the system's libpq. A Swift module's name stays in the type metadata of a binary
/// that links it, stripped or not; `onthemap-server` is the control.
@Suite struct LinkedLibrariesTests {
    static func binary(_ name: String) throws -> Data {
        try Data(contentsOf: ProductBinary.url(name), options: .alwaysMapped)
    }

    @Test func theAppLinksNoPostgresTLSOrCrypto() throws {
        let app = try Self.binary("onthemap")
        #expect(app.range(of: Data("OnTheMapServerPostgres".utf8)) == nil, "onthemap links OnTheMapServerPostgres")
        let server = try Self.binary("onthemap-server")
        #expect(server.range(of: Data("OnTheMapServerPostgres".utf8)) != nil)
        for name in ["onthemap", "onthemap-server"] {
            let binary = try Self.binary(name)
            for module in ["PostgresNIO", "AsyncHTTPClient", "NIOSSL", "BoringSSL"] {
                #expect(binary.range(of: Data(module.utf8)) == nil, "\(name) links \(module)")
            }
        }
        #expect(try Self.needed(ProductBinary.url("onthemap-server")).contains { $0.contains("libpq.so") })
        #expect(!(try Self.needed(ProductBinary.url("onthemap"))).contains { $0.contains("libpq.so") })
    }

    /// The binary's `DT_NEEDED` libraries, as `readelf` lists them.
    static func needed(_ url: URL) throws -> [String] {
        let text = try LaunchedProcess.runBlocking(URL(fileURLWithPath: "/usr/bin/env"), ["readelf", "--dynamic", url.path])
            .stdout
        return text.split(separator: "\n").filter { $0.contains("(NEEDED)") }.map(String.init)
    }

    /// Neither binary links FoundationNetworking, whose libcurl would be a `DT_NEEDED` library
    /// loaded (with its TLS libraries) at every start: `BoundedHTTP` loads libcurl with dlopen on
    /// the first `https://` exchange. The test runner, which links FoundationNetworking, is the
    /// control.
    @Test func noBinaryLoadsLibcurlAtStart() throws {
        let needed = Self.needed
        for name in ["onthemap", "onthemap-server"] {
            let libraries = try needed(ProductBinary.url(name))
            #expect(libraries.contains { $0.contains("libc.so") }, "\(name): \(libraries)")
            #expect(!libraries.contains { $0.contains("libcurl") || $0.contains("FoundationNetworking") }, "\(name): \(libraries)")
            #expect(try Self.binary(name).range(of: Data("FoundationNetworking".utf8)) == nil, "\(name)")
        }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0])
        if FileManager.default.isExecutableFile(atPath: runner.path), runner.lastPathComponent.hasSuffix(".xctest") {
            #expect(try needed(runner).contains { $0.contains("FoundationNetworking") })
        }
    }
}
