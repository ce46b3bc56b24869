import Foundation
import OnTheMapModels
import ServerTestSupport
import Synchronization
import Testing

@testable import OnTheMapServer
@testable import ServerHTTP

/// The `Date` header: the pure formatter against known dates and libc's `gmtime_r`, the
/// once-a-second cache, and the headers on real answers.
@Suite struct HTTPDateTests {
    @Test(arguments: [
        (Int64(0), "Thu, 01 Jan 1970 00:00:00 GMT"),
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),  // RFC 9110's example
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),  // a leap day of a year divisible by 400
        (1_709_208_000, "Thu, 29 Feb 2024 12:00:00 GMT"),
        (1_704_067_199, "Sun, 31 Dec 2023 23:59:59 GMT"),  // end of year, and the second after it
        (1_704_067_200, "Mon, 01 Jan 2024 00:00:00 GMT"),
        (2_147_483_648, "Tue, 19 Jan 2038 03:14:08 GMT"),  // past 32-bit time_t
        (4_107_542_400, "Mon, 01 Mar 2100 00:00:00 GMT"),  // 2100 has no 29 February
        (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
    ])
    func knownDates(seconds: Int64, expected: String) {
        #expect(HTTPDate.imfFixdate(unixSeconds: seconds) == expected)
    }

    /// Every day from 1900 to 2400 at a varying time of day, against the C library.
    @Test func agreesWithGmtime() {
        var mismatches: [String] = []
        var seconds: Int64 = -2_208_988_800  // 1900-01-01
        while seconds < 13_569_465_600 {  // 2400-01-01
            if HTTPDate.imfFixdate(unixSeconds: seconds) != Self.libcFormat(seconds) {
                mismatches.append(
                    "\(seconds): \(HTTPDate.imfFixdate(unixSeconds: seconds)) vs \(Self.libcFormat(seconds))")
            }
            seconds += 86_400 + 3_607  // a day and about an hour: the time of day walks round
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    static func libcFormat(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)  // C locale: English names
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func cacheFormatsOncePerSecond() {
        let clock = Atomic<Int64>(784_111_777)
        let cache = HTTPDateCache(now: { clock.load(ordering: .relaxed) })
        #expect(cache.current == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(cache.current == "Sun, 06 Nov 1994 08:49:37 GMT")
        clock.store(784_111_778, ordering: .relaxed)
        #expect(cache.current == "Sun, 06 Nov 1994 08:49:38 GMT")
    }

    /// Answers — a route's and a 404 — carry an IMF-fixdate within seconds of now, and the
    /// server's name.
    @Test func answersCarryDateAndServer() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        for path in [RequestPath.health, "/no-such-route"] {
            let reply = try await RawHTTP.send("GET", server.baseURL, path)
            #expect(reply.status == (path == RequestPath.health ? 200 : 404))
            #expect(reply.header("Server") == "onthemap-server")
            let date = try #require(reply.header("Date"))
            let seconds = try #require(Self.parseIMFFixdate(date), "not an IMF-fixdate: \(date)")
            #expect(abs(seconds - Int64(time(nil))) <= 5, "\(date)")
        }
    }

    /// Strictly `Www, DD Mmm YYYY HH:MM:SS GMT`, with the weekday that date has.
    static func parseIMFFixdate(_ text: String) -> Int64? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        guard
            let match = text.wholeMatch(
                of: /([A-Z][a-z]{2}), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT/),
            let month = months.firstIndex(of: String(match.3))
        else { return nil }
        var parts = tm()
        parts.tm_mday = Int32(match.2)!
        parts.tm_mon = Int32(month)
        parts.tm_year = Int32(match.4)! - 1900
        parts.tm_hour = Int32(match.5)!
        parts.tm_min = Int32(match.6)!
        parts.tm_sec = Int32(match.7)!
        let seconds = timegm(&parts)
        guard weekdays[Int(parts.tm_wday)] == match.1, parts.tm_mday == Int32(match.2)!, parts.tm_hour < 24,
            parts.tm_min < 60, parts.tm_sec < 60
        else { return nil }
        return Int64(seconds)
    }
}

/// The server's own run loop (`HTTPServerService`, in place of Hummingbird's `Application`).
@Suite struct HTTPServerServiceTests {
    /// `EmbeddedServer.stop` returns once the port no longer accepts connections.
    @Test func stopReleasesThePort() async throws {
        let server = try await TestServer.start()
        let before = try await RawHTTP.send("GET", server.baseURL, RequestPath.health)
        #expect(before.status == 200)
        await server.stop()
        await #expect(throws: (any Error).self) {
            _ = try await RawHTTP.send("GET", server.baseURL, RequestPath.health, using: RawHTTP.makeSession())
        }
    }

    /// The terminal app's built-in server (`EmbeddedServer.forOneStudent`: one event-loop
    /// thread, two SQLite readers) answers 60 list requests sent at once, each with every row.
    @Test func theBuiltInServersOneThreadAnswersRequestsAtOnce() async throws {
        let server = try await TestServer.start(seedDemo: true) { configuration in
            configuration = EmbeddedServer.forOneStudent(configuration)
        }
        defer { Task { await server.stop() } }
        #expect(server.configuration.sqliteReaders == 2)
        let path = "/v1/StudentLocation?limit=1000&order=-updatedAt"
        let baseURL = server.baseURL
        let first = try await RawHTTP.send("GET", baseURL, path)
        let demoRows = try #require(((first.json() as? [String: Any])?["results"] as? [Any])?.count)
        #expect(demoRows >= 100)
        let session = RawHTTP.makeSession(connectionsPerHost: 60)
        let statuses = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<60 {
                group.addTask {
                    let reply = try await RawHTTP.send("GET", baseURL, path, using: session)
                    let rows = (reply.json() as? [String: Any])?["results"] as? [Any]
                    return (reply.status, rows?.count ?? -1)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.count == 60)
        #expect(statuses.allSatisfy { $0.0 == 200 && $0.1 == demoRows }, "\(statuses.filter { $0.0 != 200 })")
    }
}
