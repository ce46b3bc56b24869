import Foundation
import Testing

@testable import OnTheMapServer
@testable import ServerHTTP
@_spi(WritePath) @testable import ServerStorage

/// The rows on the wire, byte for byte: what `LocationJSON` writes for every kind of field
/// (missing ones, numbers, hidden marks, `keys=`) and every kind of text (plain, non-ASCII, the
/// escapes JSON needs, the terminal controls written as `\uXXXX`). The expected bytes are the
/// writer's output before it was made fast; a parser reads back the same strings.
@Suite struct LocationJSONTests {
    static let plain = StoredLocation(
        objectId: "a1", uniqueKey: "1234", firstName: "Ada", lastName: "Lovelace", mapString: "London, UK",
        mediaURL: "https://example.com/ada?x=1&y=2", latitude: 51.5072, longitude: -0.0, createdAt: "2026-01-02T03:04:05.006Z",
        updatedAt: "2026-01-02T03:04:05.007Z")
    static let sparse = StoredLocation(objectId: "b2", createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.001Z")
    /// Every escape and control, next to text that needs none (£ and é share lead bytes with C1).
    static let hostileText =
        "\u{1B}]0;x\u{07}\"q\\b/\n\r\t\u{0}\u{1F}\u{7F}\u{80}\u{85}\u{9F}\u{A0}£é\u{061C}\u{200E}\u{200F}\u{202A}\u{202E}"
        + "\u{2066}\u{2069}\u{2028}\u{FEFF}\u{FFF9}\u{FFFB}\u{FFFC}東京 🎉"
    static let hostile = StoredLocation(
        objectId: "c3", uniqueKey: hostileText, firstName: "É", lastName: "\u{202E}", mapString: hostileText, mediaURL: "",
        latitude: .nan, longitude: 1e-7, createdAt: "2026-01-03T00:00:00.000Z", updatedAt: "2026-01-03T00:00:00.000Z",
        hiddenAt: "2026-01-04T00:00:00.000Z", hiddenReason: "spam \"and\" \u{1B}[2J", hiddenBy: "mod")
    static let numbers = StoredLocation(
        objectId: "d4", latitude: -90, longitude: 179.99999999999997, createdAt: "2026-01-05T00:00:00.000Z",
        updatedAt: "2026-01-05T00:00:00.000Z")

    static let hostileJSON =
        #""\u001b]0;x\u0007\"q\\b/\n\r\t\u0000\u001f\u007f\u0080\u0085\u009f\#u{A0}£é\u061c\u200e\u200f\u202a\u202e"#
        + #"\u2066\u2069\#u{2028}\ufeff\ufff9\ufffb\#u{FFFC}東京 🎉""#

    @Test func aListIsWrittenByteForByte() {
        var json = LocationJSON()
        json.writeList([Self.plain, Self.sparse, Self.hostile, Self.numbers], count: 1_000_000, keys: nil)
        let expected =
            #"{"results":[{"objectId":"a1","uniqueKey":"1234","firstName":"Ada","lastName":"Lovelace","mapString":"London, UK","#
            + #""mediaURL":"https://example.com/ada?x=1&y=2","latitude":51.5072,"longitude":-0.0,"#
            + #""createdAt":"2026-01-02T03:04:05.006Z","updatedAt":"2026-01-02T03:04:05.007Z"},"#
            + #"{"objectId":"b2","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.001Z"},"#
            + #"{"objectId":"c3","uniqueKey":"# + Self.hostileJSON + #","firstName":"É","lastName":"\u202e","mapString":"#
            + Self.hostileJSON + #","mediaURL":"","latitude":null,"longitude":1e-07,"#
            + #""createdAt":"2026-01-03T00:00:00.000Z","updatedAt":"2026-01-03T00:00:00.000Z","#
            + #""hidden":true,"hiddenReason":"spam \"and\" \u001b[2J"},"#
            + #"{"objectId":"d4","latitude":-90.0,"longitude":179.99999999999997,"#
            + #""createdAt":"2026-01-05T00:00:00.000Z","updatedAt":"2026-01-05T00:00:00.000Z"}],"count":1000000}"#
        #expect(String(decoding: json.bytes, as: UTF8.self) == expected)
    }

    @Test func keysKeepTheIdAndTheDates() {
        var json = LocationJSON()
        json.writeList([Self.plain, Self.hostile], count: nil, keys: [.firstName, .latitude])
        let expected =
            #"{"results":[{"objectId":"a1","firstName":"Ada","latitude":51.5072,"#
            + #""createdAt":"2026-01-02T03:04:05.006Z","updatedAt":"2026-01-02T03:04:05.007Z"},"#
            + #"{"objectId":"c3","firstName":"É","latitude":null,"#
            + #""createdAt":"2026-01-03T00:00:00.000Z","updatedAt":"2026-01-03T00:00:00.000Z","#
            + #""hidden":true,"hiddenReason":"spam \"and\" \u001b[2J"}]}"#
        #expect(String(decoding: json.bytes, as: UTF8.self) == expected)
    }

    /// A parser reads back exactly the strings that were written.
    @Test func stringsReadBackAsWritten() throws {
        for text in [Self.hostileText, "", "plain", String(repeating: "é\u{85}", count: 300), "\u{10FFFF}\u{E000}"] {
            var json = LocationJSON()
            json.writeString(text)
            let read = try JSONSerialization.jsonObject(with: Data(json.bytes), options: .fragmentsAllowed) as? String
            #expect(read == text)
        }
    }

    /// Numbers are `Double.description` exactly, including those written without it (up to nine
    /// decimals): coordinates as people type them, as geocoders give them, and arbitrary doubles.
    @Test func numbersAreWrittenAsTheirDescription() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [
            0, -0.0, 1, -1, 5, 0.001, -0.001, 0.000999, 0.0005, 0.1, 0.2, 0.3, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 90, -90, 180, -180,
            37.7749, -122.4194, 51.5072, 179.99999999999997, 9_999_999, 9_999_999.5, 9_999_999.999999999, 10_000_000, 1e7.nextDown,
            0.001.nextDown, 0.001.nextUp, 1e-7, 1e15, 123_456.789012345, 4_503_599_627_370_496, .pi, -.pi, .ulpOfOne,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude,
        ]
        let scales: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12]
        for scale in scales {
            for _ in 0..<2_000 {
                let whole = Double(Int64.random(in: -180_000_000_000_000...180_000_000_000_000, using: &generator) % Int64(180 * scale + 1))
                values.append(whole / scale)
            }
        }
        for _ in 0..<5_000 {
            values.append(Double.random(in: -180...180, using: &generator))
            values.append(Double.random(in: -1e7...1e7, using: &generator))
            values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
        }
        var mismatches: [String] = []
        for value in values where value.isFinite {
            var json = LocationJSON()
            json.write(StoredLocation(objectId: "n", latitude: value, createdAt: "c", updatedAt: "u"), keys: nil)
            let expected = #"{"objectId":"n","latitude":\#(value.description),"createdAt":"c","updatedAt":"u"}"#
            let written = String(decoding: json.bytes, as: UTF8.self)
            if written != expected, mismatches.count < 10 { mismatches.append("\(value.description): \(written)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        // The fast path is taken for coordinates (or the test above would not test it).
        #expect(LocationJSON.shortDecimal(37.7749).map { $0 == (377_749, 4) } == true)
        #expect(LocationJSON.shortDecimal(0.005).map { $0 == (5, 3) } == true)
        #expect(LocationJSON.shortDecimal(-122.41941550000001) == nil)
        #expect(LocationJSON.shortDecimal(0.0005) == nil)
    }

    /// The eight-bytes-at-a-time check agrees with a byte-by-byte one, at every length and
    /// offset of every byte that needs an escape or is not ASCII.
    @Test func theASCIICheckAgreesWithEachByte() {
        func plain(_ bytes: [UInt8]) -> Bool { bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C } }
        var cases: [[UInt8]] = []
        for length in 0...24 {
            let base = [UInt8]((0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) })
            cases.append(base)
            for position in 0..<length {
                for byte: UInt8 in [0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC2, 0xFF] {
                    var changed = base
                    changed[position] = byte
                    cases.append(changed)
                }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            cases.append((0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            cases.append((0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0x1E...0x7F, using: &generator) })
        }
        for bytes in cases {
            let checked = bytes.withUnsafeBufferPointer { LocationJSON.isPlainASCII($0) }
            #expect(checked == plain(bytes), "\(bytes)")
            if checked != plain(bytes) { return }
        }
    }

    /// SQLite writes the list from its statement's columns in place: the same bytes as writing
    /// the rows it reads, for every kind of text (a NUL inside, invalid UTF-8 from another tool).
    @Test(arguments: ["order=-updatedAt&count=1", "order=objectId&keys=firstName,latitude", "limit=2&skip=1&count=1", "limit=0&count=1"])
    func sqliteWritesTheSameBytesAsTheRows(query: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locationjson-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = try SQLiteStorage(path: folder.appendingPathComponent("db.sqlite").path)
        defer { Task { await storage.close() } }
        try await storage.migrate()
        var nul = Self.sparse
        nul.objectId = "e5"
        nul.mapString = "before\u{0}after"
        try await storage.insert([Self.plain, Self.sparse, Self.hostile, Self.numbers, nul])
        try await storage.pool.write { db in
            try db.execute(sql: "UPDATE student_location SET first_name = CAST(X'41FF42C3' AS TEXT) WHERE object_id = 'd4'")
        }
        var list = try ListQuery.parse(RawQuery.parse(query), defaultLimit: 100, maxLimit: 1000, allowUniqueKeyParameter: true)
        list.visibility = .all
        let (rows, count) = try await storage.locations(list)
        var json = LocationJSON()
        json.writeList(rows, count: count, keys: list.keys)
        let direct = try await storage.locationList(list)
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: json.bytes, as: UTF8.self))
        #expect(direct == json.bytes)
        if query.hasPrefix("order=-updatedAt") {
            #expect(rows.count == 5)
            #expect(String(decoding: direct, as: UTF8.self).contains(#""firstName":"A\#u{FFFD}B\#u{FFFD}""#))
            #expect(String(decoding: direct, as: UTF8.self).contains(#""mapString":"before""#))
        }
    }
}
