import Foundation
import TerminalNCurses
import Testing

@Suite struct TerminfoWithoutScrollingTests {
    /// A compiled entry with `strings` string offsets, each the index itself, and the layout's
    /// odd-length names and booleans (a pad byte before the numbers).
    static func entry(magic: Int, numberSize: Int, strings: Int) -> [UInt8] {
        func short(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        let names = Array("xterm|test\0".utf8)  // 11 bytes
        let booleans = [UInt8](repeating: 1, count: 4)  // 12 + 11 + 4 = 27: one pad byte
        let numbers = [UInt8](repeating: 7, count: 3 * numberSize)
        var bytes = short(magic) + short(names.count) + short(booleans.count) + short(3) + short(strings) + short(0)
        bytes += names + booleans + [0] + numbers
        for index in 0..<strings { bytes += short(index) }
        return bytes
    }

    static func offsets(_ entry: [UInt8], numberSize: Int, strings: Int) -> [Int] {
        let start = 12 + 11 + 4 + 1 + 3 * numberSize
        return (0..<strings).map { Int(entry[start + 2 * $0]) | Int(entry[start + 2 * $0 + 1]) << 8 }
    }

    @Test(arguments: [(0o432, 2), (0o1036, 4)])
    func theScrollingStringsAreAbsentAndNothingElseChanges(magic: Int, numberSize: Int) throws {
        let original = Self.entry(magic: magic, numberSize: numberSize, strings: 140)
        let patched = try #require(TerminfoWithoutScrolling.entry(original))
        #expect(patched.count == original.count)
        let offsets = Self.offsets(patched, numberSize: numberSize, strings: 140)
        // change_scroll_region, delete_line, insert_line, parm_delete_line, parm_index,
        // parm_insert_line, parm_rindex, scroll_forward, scroll_reverse (term.h's indices)
        let scrolling: Set = [3, 22, 53, 106, 109, 110, 113, 129, 130]
        for index in 0..<140 {
            #expect(offsets[index] == (scrolling.contains(index) ? 0xFFFF : index), "string \(index)")
        }
        #expect(patched.prefix(12 + 11 + 4 + 1 + 3 * numberSize) == original.prefix(12 + 11 + 4 + 1 + 3 * numberSize))
    }

    @Test func aShortEntryLosesWhatItHasAndAnythingElseIsRefused() throws {
        let short = Self.entry(magic: 0o432, numberSize: 2, strings: 60)
        let patched = try #require(TerminfoWithoutScrolling.entry(short))
        #expect(Self.offsets(patched, numberSize: 2, strings: 60).filter { $0 == 0xFFFF }.count == 3)
        #expect(TerminfoWithoutScrolling.entry(Array("not terminfo at all".utf8)) == nil)
        #expect(TerminfoWithoutScrolling.entry(Array(short.prefix(40))) == nil, "cut before its offsets")
        #expect(TerminfoWithoutScrolling.entry([]) == nil)
    }

    @Test func theSearchFollowsNcursesOrderAndRefusesAPath() {
        let found = TerminfoWithoutScrolling.candidates(
            for: "xterm", environment: ["TERMINFO": "/own", "HOME": "/home/a", "TERMINFO_DIRS": "/extra::/more"])
        #expect(
            found.filter { $0.contains("/x/") } == [
                "/own/x/xterm", "/home/a/.terminfo/x/xterm", "/extra/x/xterm", "/etc/terminfo/x/xterm",
                "/lib/terminfo/x/xterm", "/usr/share/terminfo/x/xterm", "/more/x/xterm", "/etc/terminfo/x/xterm",
                "/lib/terminfo/x/xterm", "/usr/share/terminfo/x/xterm",
            ])
        #expect(found.contains("/own/78/xterm"))
        #expect(TerminfoWithoutScrolling.candidates(for: "../../etc/passwd", environment: [:]).isEmpty)
        #expect(TerminfoWithoutScrolling.candidates(for: "", environment: [:]).isEmpty)
    }

    /// The machine's own xterm entry, as curses would read it from the folder.
    @Test func theSystemsXtermEntryIsWrittenWithoutScrolling() throws {
        let folder = try #require(TerminfoWithoutScrolling.writeFolder(for: "xterm", environment: [:]))
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try #require(FileManager.default.contents(atPath: folder.path + "/x/xterm"))
        let system = try #require(
            ["/etc/terminfo/x/xterm", "/lib/terminfo/x/xterm", "/usr/share/terminfo/x/xterm"].lazy
                .compactMap { FileManager.default.contents(atPath: $0) }.first)
        #expect(written.count == system.count)
        #expect(Array(written) == TerminfoWithoutScrolling.entry(Array(system)))
        #expect(Array(written) != Array(system), "xterm can scroll a region: something was taken out")
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }
}
