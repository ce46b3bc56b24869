import Foundation
import ServerTestSupport
import Testing

@testable import OnTheMapServer
@testable import ServerHTTP
@testable import ServerQuery
@_spi(WritePath) @testable import ServerStorage

import enum ServerStorage.Predicate

/// The in-memory evaluator LiveQuery uses agrees with the SQL the REST list runs, on the same
/// rows, for every `where` of the query tests and the edge cases of three-valued logic.
@Suite struct PredicateEvaluatorTests {
    static let extraRows: [StoredLocation] = [
        StoredLocation(
            objectId: "g", uniqueKey: "k5", firstName: "Émilie", lastName: "du Châtelet", mapString: "Zürich",
            mediaURL: "HTTPS://EMILIE.FR", latitude: nil, longitude: nil, createdAt: QueryTests.stamp(7),
            updatedAt: QueryTests.stamp(7)),
        StoredLocation(
            objectId: "h", uniqueKey: nil, firstName: "zed", lastName: "Z", mapString: "a\nb", mediaURL: "x",
            latitude: -90, longitude: 180, createdAt: QueryTests.stamp(8), updatedAt: QueryTests.stamp(8)),
    ]

    static let wheres: [String] =
        QueryTests.cases.compactMap { $0.query.hasPrefix("where=") ? String($0.query.dropFirst(6).split(separator: "&")[0]) : nil }
        + [
            #"{"uniqueKey":{"$in":["k1",null]}}"#,
            #"{"uniqueKey":{"$nin":["k1",null]}}"#,
            #"{"uniqueKey":{"$ne":null}}"#,
            #"{"latitude":{"$ne":51.5}}"#,
            #"{"latitude":{"$nin":[51.5]}}"#,
            #"{"lastName":{"$gt":"Z"}}"#,
            #"{"firstName":{"$lt":"a"}}"#,
            #"{"firstName":{"$gte":"É"}}"#,
            #"{"mapString":{"$regex":"^b$","$options":"m"}}"#,
            #"{"mediaURL":{"$regex":"emilie","$options":"i"}}"#,
            #"{"$nor":[{"firstName":{"$exists":true}}]}"#,
            #"{"$or":[{"latitude":{"$gt":50}},{"uniqueKey":{"$in":["k5"]}}]}"#,
            #"{"$nor":[{"latitude":{"$gt":50}}]}"#,
            #"{"$nor":[{"uniqueKey":"k1"},{"latitude":{"$lt":0}}]}"#,
            #"{"longitude":{"$gte":180},"latitude":{"$lte":-90}}"#,
            #"{"objectId":{"$in":["a","h"]}}"#,
        ]

    @Test(arguments: TestBackend.available) func inMemoryAgreesWithSQL(_ backend: TestBackend) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-eval-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try await backend.makeDatabase(in: directory)
        let storage = try await ServerApplication.openStorage(TestBackend.configuration(database: database))
        let rows = QueryTests.rows + Self.extraRows
        try await storage.insert(rows)
        var checked = 0
        for text in Self.wheres {
            var limits = WhereLimits()
            let predicate = try WhereParser.parse(text, limits: &limits)
            var query = ListQuery(limit: 1000)
            query.predicate = predicate
            let sql = Set(try await storage.locations(query).rows.map(\.objectId))
            let memory = Set(rows.filter { predicate.matches($0) }.map(\.objectId))
            #expect(memory == sql, "\(backend) where=\(text)")
            checked += 1
        }
        await storage.close()
        await backend.dropDatabase(database)
        #expect(checked == Self.wheres.count && checked >= 40)
    }

    @Test func aBacktrackingRegexIsStoppedAndDoesNotMatch() {
        let row = StoredLocation(
            objectId: "x", mapString: String(repeating: "a", count: 40) + "!", createdAt: "", updatedAt: "")
        let start = ContinuousClock.now
        #expect(!Predicate.regex(.mapString, pattern: "^(a+)+$", options: "").matches(row))
        // Unbounded, 2^40 ways to split the a's: hours. Bounded, milliseconds; 10 s leaves room
        // for a loaded machine.
        #expect(ContinuousClock.now - start < .seconds(10))
    }
}
