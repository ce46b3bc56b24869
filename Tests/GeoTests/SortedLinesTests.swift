import Foundation
import ResidentPages
import Testing

@testable import Geo

/// The name index is searched in place (`SortedLines`: a binary search over byte offsets, no
/// line starts kept), and lookups give back the pages of the tables they read.
struct SortedLinesTests {
    static let table: StaticString = """
        a\t1
        ab\t2
        abc\t3
        abd\t4
        b\t5
        ba\t6
        bb\t7
        zz\t8
        """

    let lines = SortedLines(table)

    func text(_ line: UnsafeBufferPointer<UInt8>?) -> String? { line.map { String(decoding: $0, as: UTF8.self) } }

    @Test func everyLineIsFoundByItsFirstFieldAndNothingElseIs() {
        let all = "\(Self.table)".split(separator: "\n").map(String.init)
        for line in all {
            let key = String(line.split(separator: "\t")[0])
            #expect(text(lines.find(key: Array(key.utf8))) == line, "\(key)")
        }
        for absent in ["", "0", "aa", "abcd", "ac", "bc", "c", "z", "zzz", "~"] {
            #expect(lines.find(key: Array(absent.utf8)) == nil, "\(absent)")
        }
    }

    @Test func linesStartingWithAPrefixInOrderWithTheExactOneMarked() {
        func starting(_ prefix: String, _ limit: Int = 10) -> [String] {
            lines.lines(startingWith: Array(prefix.utf8), atMost: limit).map {
                "\(text($0.line)!)\($0.exact ? "=" : "")"
            }
        }
        #expect(starting("ab") == ["ab\t2=", "abc\t3", "abd\t4"])
        #expect(starting("a", 2) == ["a\t1=", "ab\t2"])
        #expect(starting("b") == ["b\t5=", "ba\t6", "bb\t7"])
        #expect(starting("z") == ["zz\t8"])
        #expect(starting("c").isEmpty)
        #expect(starting("zzz").isEmpty)
        #expect(starting("") == ["a\t1", "ab\t2", "abc\t3", "abd\t4", "b\t5", "ba\t6", "bb\t7", "zz\t8"])
    }

    /// The real index: the same answers as a walk through every line.
    @Test func theGazetteersNamesAgreeWithALinearWalk() {
        let names = Gazetteer.shared.names
        let all = String(decoding: names.bytes, as: UTF8.self).split(separator: "\n")
        #expect(all.count > 100_000)
        for line in stride(from: 0, to: all.count, by: 997).map({ all[$0] }) + [all.first!, all.last!] {
            let key = Array(line.split(separator: "\t", omittingEmptySubsequences: false)[0].utf8)
            #expect(text(names.find(key: key)).map { Substring($0) } == line)
        }
        let prefix = Array("san ".utf8)
        let walked = all.filter { $0.utf8.starts(with: prefix) }.prefix(400).map(String.init)
        #expect(names.lines(startingWith: prefix, atMost: 400).map { text($0.line)! } == walked)
    }

    /// "Go to" keystrokes and a geocode leave few of the tables' 4.6 MB resident (all of it used
    /// to stay: opening the gazetteer read every page to find its lines). Other tests look up
    /// places at the same time, in the same pages, so the bound is half the pages, not none.
    @Test func lookupsGiveBackTheTablesPages() throws {
        let gazetteer = Gazetteer()
        for text in ["s", "san", "san fran", "lisb", "muenchen"] { _ = gazetteer.completions(for: text) }
        _ = try OfflineGeocoder(gazetteer: gazetteer).resolve("Lausanne, Switzerland")
        let names = try fewestResidentPages(UnsafeRawBufferPointer(gazetteer.names.bytes))
        let cities = try fewestResidentPages(UnsafeRawBufferPointer(gazetteer.cities.bytes))
        #expect(names.total > 700 && cities.total > 300)
        #expect(names.present < names.total / 2 && cities.present < cities.total / 2, "\(names), \(cities)")
        // Read again after the give-back, from the page cache: the same answer.
        #expect(gazetteer.completions(for: "san fran").first?.placemark.displayName.hasPrefix("San Francisco") == true)
    }

    @Test func givenBackPagesReadTheSameAgain() throws {
        let gazetteer = Gazetteer()
        let bytes = UnsafeRawBufferPointer(gazetteer.names.bytes)
        let before = bytes.reduce(0) { $0 &+ Int($1) }  // every page read
        ResidentPages.giveBack(bytes)
        let after = try fewestResidentPages(bytes)
        #expect(after.present < after.total / 2, "\(after)")
        #expect(bytes.reduce(0) { $0 &+ Int($1) } == before)
    }
}

/// The fewest pages under `bytes` mapped at one of 20 looks: other tests' lookups map pages of the
/// same tables for a moment, never for long, while pages nobody gives back stay at every look.
func fewestResidentPages(_ bytes: UnsafeRawBufferPointer) throws -> (present: Int, total: Int) {
    let total = bytes.count / ResidentPages.pageSize
    var fewest = Int.max
    for _ in 0..<20 { fewest = min(fewest, try #require(ResidentPages.residentCount(bytes))) }
    return (fewest, total)
}
