import Foundation
import ServerTestSupport
import Testing

@testable import OnTheMapServer
@testable import ServerHTTP
@testable import ServerQuery
@testable import ServerStorage

/// The caps on one `where` (`WhereLimits`): past any, 400 `{"code":124,"error":"query too expensive"}`.
@Suite struct QueryLimitTests {
    static func many(_ count: Int, _ item: (Int) -> String) -> String {
        (0..<count).map(item).joined(separator: ",")
    }

    static func nested(_ depth: Int) -> String {
        depth == 0 ? #"{"uniqueKey":"k1"}"# : #"{"$or":[\#(nested(depth - 1))]}"#
    }

    static let regexFields = ["firstName", "lastName", "mapString", "mediaURL", "uniqueKey"]

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var whereJSON: String
        var refused: Bool
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "32 clauses", whereJSON: "{" + many(32) { #""f\#($0)":1"# } + "}", refused: false),
        Case(name: "33 clauses", whereJSON: "{" + many(33) { #""f\#($0)":1"# } + "}", refused: true),
        Case(name: "4 regexes", whereJSON: "{" + many(4) { #""\#(regexFields[$0])":{"$regex":"a"}"# } + "}", refused: false),
        Case(name: "5 regexes", whereJSON: "{" + many(5) { #""\#(regexFields[$0])":{"$regex":"a"}"# } + "}", refused: true),
        Case(name: "16 $or branches", whereJSON: #"{"$or":["# + many(16) { #"{"uniqueKey":"k\#($0)"}"# } + "]}", refused: false),
        Case(name: "17 $or branches", whereJSON: #"{"$or":["# + many(17) { #"{"uniqueKey":"k\#($0)"}"# } + "]}", refused: true),
        Case(name: "17 $and branches", whereJSON: #"{"$and":["# + many(17) { #"{"f\#($0)":1}"# } + "]}", refused: true),
        Case(name: "17 $nor branches", whereJSON: #"{"$nor":["# + many(17) { #"{"f\#($0)":1}"# } + "]}", refused: true),
        Case(name: "nesting 4", whereJSON: nested(4), refused: false),
        Case(name: "nesting 5", whereJSON: nested(5), refused: true),
        Case(name: "nesting 9", whereJSON: nested(9), refused: true),
        Case(
            name: "2,001 $in values",
            whereJSON: #"{"uniqueKey":{"$in":["# + many(1000) { #""k\#($0)""# } + #"]},"firstName":{"$nin":["#
                + many(1000) { #""n\#($0)""# } + #"]},"lastName":{"$in":["x"]}}"#,
            refused: true),
    ]

    /// One server per backend for all the cases (a server per case would hold dozens of
    /// PostgreSQL connections while other suites run).
    @Test(arguments: TestBackend.available)
    func capsAWhere(backend: TestBackend) async throws {
        let server = try await QueryTests.start(backend)
        defer { Task { await server.stop() } }
        // Twice: a refusal is never kept by the list cache.
        for test in Self.cases {
            for _ in 0..<2 {
                let reply = try await QueryTests.get(server, "/v1/StudentLocation", "where=" + test.whereJSON)
                let body = reply.json() as? [String: Any]
                if test.refused {
                    #expect(reply.status == 400, "\(test): \(reply.text)")
                    #expect(body?["code"] as? Int == 124)
                    #expect(body?["error"] as? String == "query too expensive")
                } else {
                    #expect(reply.status == 200, "\(test): \(reply.text)")
                }
            }
        }
    }

    /// Repeating `where` does not multiply the caps: every `where` (and `uniqueKey`) parameter
    /// of a request is counted against one `WhereLimits`.
    @Test(arguments: TestBackend.available)
    func repeatedWheresAreCountedTogether(backend: TestBackend) async throws {
        let server = try await QueryTests.start(backend)
        defer { Task { await server.stop() } }
        func wheres(_ count: Int, _ make: (Int) -> String) -> String {
            (0..<count).map { "where=" + make($0) }.joined(separator: "&")
        }
        let regex = { (index: Int) in #"{"\#(Self.regexFields[index % Self.regexFields.count])":{"$regex":"a\#(index)"}}"# }
        let inList = { (index: Int) in #"{"uniqueKey":{"$in":["# + Self.many(1000) { #""k\#(index)-\#($0)""# } + "]}}" }
        let cases: [(String, String, Bool)] = [
            ("4 wheres of a regex", wheres(4, regex), false),
            ("5 wheres of a regex", wheres(5, regex), true),
            ("40 wheres of a regex", wheres(40, regex), true),
            ("32 wheres of a clause", wheres(32) { #"{"f\#($0)":1}"# }, false),
            ("33 wheres of a clause", wheres(33) { #"{"f\#($0)":1}"# }, true),
            ("2 wheres of 1,000 $in values", wheres(2, inList), false),
            ("3 wheres of 1,000 $in values", wheres(3, inList), true),
            ("32 clauses and a uniqueKey", wheres(32) { #"{"f\#($0)":1}"# } + "&uniqueKey=k", true),
        ]
        for (name, query, refused) in cases {
            let reply = try await QueryTests.get(server, "/v1/StudentLocation", query)
            if refused {
                #expect(reply.status == 400, "\(name): \(reply.text)")
                #expect((reply.json() as? [String: Any])?["code"] as? Int == 124, "\(name)")
            } else {
                #expect(reply.status == 200, "\(name): \(reply.text)")
            }
        }
    }

    @Test func theAppsRequestsAreNotExpensive() throws {
        func query(_ text: String) throws -> ListQuery {
            try ListQuery.parse(RawQuery.parse(text), defaultLimit: 100, maxLimit: 1000, allowUniqueKeyParameter: true)
        }
        #expect(try !query("limit=100&order=-updatedAt").isExpensive)
        #expect(try !query("limit=100&skip=100&order=-updatedAt&count=1").isExpensive)
        #expect(try !query("uniqueKey=k1").isExpensive)
        #expect(try !query(#"where={"uniqueKey":"k1"}&order=lastName"#).isExpensive)
        #expect(try query(#"where={"uniqueKey":"k1","firstName":{"$regex":"a"}}"#).isExpensive)
        #expect(try query(#"where={"firstName":"Ada"}"#).isExpensive)
        #expect(try query("order=lastName").isExpensive)
    }
}

/// The query string read as Express read it: the fast path for plain text (the app's queries)
/// gives what Foundation's percent-decoding gives, and every other form still goes through it.
@Suite struct RawQueryTests {
    /// What `RawQuery.decode` did for every name and value before it had a fast path.
    static func foundationDecode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    @Test func namesAndValuesAreDecodedAsFoundationDoes() {
        let texts = [
            "limit=100&order=-updatedAt", "a+b=c+d", "x=%41%42", "x=%zz", "x=%4", "x=%", "x=%C3%A9t%C3%A9", "x=%FF", "x=%00y",
            "x=a%2Bb+c", "==", "=v", "n=", "n", "a=b=c", "é=ü", "x=東京", "x=%E6%9D%B1", "&&x=1&&", "x=1&x=2", "k=+%20+",
        ]
        for text in texts {
            let expected: [(String, String)] = text.split(separator: "&").compactMap { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = Self.foundationDecode(parts[0])
                guard !name.isEmpty else { return nil }
                return (name, parts.count > 1 ? Self.foundationDecode(parts[1]) : "")
            }
            let parsed = RawQuery.parse(text)
            #expect(parsed.map(\.0) == expected.map(\.0), "\(text)")
            #expect(parsed.map(\.1) == expected.map(\.1), "\(text)")
        }
        #expect(RawQuery.parse(nil).isEmpty)
        #expect(RawQuery.parse("").isEmpty)
    }

    /// `&` separates wherever it stands, as Express's `split('&')` did, even before a combining
    /// mark (with which a `Character` would have swallowed it).
    @Test func anAmpersandBeforeACombiningMarkSeparates() {
        let parsed = RawQuery.parse("a=1&\u{301}b=2")
        #expect(parsed.map(\.0) == ["a", "\u{301}b"])
        #expect(parsed.map(\.1) == ["1", "2"])
    }

    @Test func orderKeysWithSpacesAreTrimmedAsBefore() throws {
        let query = try ListQuery.parse(
            RawQuery.parse("order=%20-updatedAt,%C2%A0lastName%09"), defaultLimit: 100, maxLimit: 1000, allowUniqueKeyParameter: true)
        #expect(query.order.map(\.field) == [.updatedAt, .lastName])
        #expect(query.order.map(\.descending) == [true, false])
    }
}
