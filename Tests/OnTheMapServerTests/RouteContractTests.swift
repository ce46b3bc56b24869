import Foundation
import ServerConfig
import Testing

@testable import OnTheMapServer
@testable import ServerHTTP

/// The router serves exactly the paths and methods of the OpenAPI document: no route the
/// document leaves out, no documented operation without a route. The router takes its paths from
/// `RequestPath` (shared with the API client); the document is written by
/// `scripts/openapi/generate.py`, so this is where the two meet.
@Suite struct RouteContractTests {
    /// `METHOD /path` of every operation in the served document, `{name}` for a parameter.
    static func documentedOperations() throws -> Set<String> {
        let document = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any]
        let paths = try #require(document?["paths"] as? [String: [String: Any]])
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
        return Set(paths.flatMap { path, item in item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" } })
    }

    @Test func theRoutesAreExactlyTheDocumentsPathsAndMethods() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Metrics on: `/metrics` is in the document (it answers 404 when they are off).
        let configuration = ServerConfiguration(databasePath: directory.appendingPathComponent("server.sqlite").path, metrics: true)
        let storage = try await ServerApplication.openStorage(configuration)
        let router = ServerApplication.buildRouter(storage: storage, configuration: configuration)
        let routes = Set(router.routes.map { "\($0.method.rawValue) \($0.path)" })
        await storage.close()

        let documented = try Self.documentedOperations()
        #expect(routes.count > 20)
        #expect(routes.subtracting(documented).sorted() == [], "routes the OpenAPI document does not list")
        #expect(documented.subtracting(routes).sorted() == [], "documented operations the router does not serve")
    }
}
