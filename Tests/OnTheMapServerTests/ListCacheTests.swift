import Foundation
import NIOCore
import ServerTestSupport
import TestPatience
import Testing

@testable import OnTheMapServer
@testable import ServerHTTP

/// The list-answer cache: the newest page is served from memory, and no write is hidden by it
/// for longer than the rules say.
@Suite struct ListCacheTests {
    static let newest = "/v1/StudentLocation?limit=100&order=-updatedAt"

    static func results(_ server: TestServer, _ pathAndQuery: String = newest) async throws -> [[String: Any]] {
        let reply = try await RawHTTP.send("GET", server.baseURL, pathAndQuery)
        #expect(reply.status == 200)
        return try #require(reply.results)
    }

    static func mapStrings(_ server: TestServer, _ pathAndQuery: String = newest) async throws -> [String] {
        try await results(server, pathAndQuery).compactMap { $0["mapString"] as? String }
    }

    @Test(arguments: TestBackend.available)
    func theServersOwnWritesShowAtOnceEvenWithALongLifetime(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend, openWrites: true, listCacheSeconds: 3600)
        defer { Task { await server.stop() } }
        #expect(try await Self.mapStrings(server) == [])
        #expect(try await Self.mapStrings(server, "/parse/classes/StudentLocation?order=-updatedAt&count=1").isEmpty)

        // Open writes are the 2015 Parse contract: anyone may create, update and delete.
        let key = try await server.addUser(email: "ada@example.com")
        let body = WriteRulesTests.body(key: key, replacing: ["mapString": #""Lisbon""#])
        let post = try await RawHTTP.send("POST", server.baseURL, "/v1/StudentLocation", json: body)
        #expect(post.status == 201)
        let objectId = try #require((post.json() as? [String: Any])?["objectId"] as? String)
        #expect(try await Self.mapStrings(server) == ["Lisbon"])
        let counted = try await RawHTTP.send("GET", server.baseURL, "/parse/classes/StudentLocation?order=-updatedAt&count=1")
        #expect((counted.json() as? [String: Any])?["count"] as? Int == 1)

        let put = try await RawHTTP.send("PUT", server.baseURL, "/v1/StudentLocation/\(objectId)", json: #"{"mapString":"Porto"}"#)
        #expect(put.status == 200)
        #expect(try await Self.mapStrings(server) == ["Porto"])

        let delete = try await RawHTTP.send("DELETE", server.baseURL, "/v1/StudentLocation/\(objectId)")
        #expect(delete.status == 200, "an open writer may delete")
        #expect(try await Self.mapStrings(server) == [])
    }

    /// Another process writing the database (here the benchmark fill, which tells no subscriber
    /// of its rows one by one): the change log tells the cache at once, on SQLite (the follower's
    /// poll) and on PostgreSQL (NOTIFY) — long before the hour the answer would otherwise live.
    @Test(arguments: TestBackend.available)
    func anotherProcesssWriteShowsAtOnce(backend: TestBackend) async throws {
        let server = try await TestServer.start(backend: backend, listCacheSeconds: 3600)
        defer { Task { await server.stop() } }
        #expect(try await Self.mapStrings(server) == [])

        try await server.withDatabase { try await $0.seedSynthetic(count: 3) }
        let seeded = ContinuousClock.now
        // However slowly a loaded machine got here: the hang guard is still far inside the hour
        // that a cache which missed the change would keep its answer.
        let count = try await poll(until: seeded + Patience.forAnEvent, { try await Self.results(server).count }) { $0 == 3 }
        #expect(count == 3, "gave up \(ContinuousClock.now - seeded) after seeding")
    }

    @Test func refusedQueriesAreNeverKept() async throws {
        let server = try await TestServer.start(listCacheSeconds: 3600)
        defer { Task { await server.stop() } }
        for _ in 0..<2 {
            let reply = try await RawHTTP.send("GET", server.baseURL, "/v1/StudentLocation?order=-updateAt")
            #expect(reply.status == 400)
            #expect((reply.json() as? [String: Any])?["code"] as? Int == 102)
        }
    }

    @Test func anAnswerComputedAcrossAWriteIsNotStored() {
        let cache = ListAnswerCache(lifetime: .seconds(60))
        let key = try! #require(cache.key(isV1: true, query: "limit=100&order=-updatedAt"))
        let before = cache.generation
        cache.invalidate()  // a write commits while the rows are being read
        cache.store(ByteBuffer(string: "old"), for: key, generation: before)
        #expect(cache.answer(for: key) == nil)

        cache.store(ByteBuffer(string: "new"), for: key, generation: cache.generation)
        #expect(cache.answer(for: key) == ByteBuffer(string: "new"))
        #expect(cache.answer(for: key, now: .now() + .seconds(61)) == nil, "expired")
        #expect(cache.answer(for: key) == nil, "an expired answer is dropped")
    }

    @Test func theCacheIsBoundedAndCanBeTurnedOff() {
        #expect(ListAnswerCache(lifetime: .zero).key(isV1: true, query: "limit=100") == nil)
        let cache = ListAnswerCache(lifetime: .seconds(60))
        #expect(cache.key(isV1: true, query: String(repeating: "a", count: ListAnswerCache.maxQueryBytes + 1)) == nil)
        #expect(cache.key(isV1: true, query: "x") != cache.key(isV1: false, query: "x"))
        let keys = (0...ListAnswerCache.maxEntries).map { cache.key(isV1: true, query: "skip=\($0)")! }
        for key in keys { cache.store(ByteBuffer(string: key.query), for: key, generation: cache.generation) }
        let kept = keys.filter { cache.answer(for: $0) != nil }
        #expect(kept.count <= ListAnswerCache.maxEntries && kept.contains(keys.last!))
        let huge = ByteBuffer(repeating: 0x20, count: ListAnswerCache.maxAnswerBytes + 1)
        cache.store(huge, for: keys[0], generation: cache.generation)
        #expect(cache.answer(for: keys[0]) == nil)
    }
}
