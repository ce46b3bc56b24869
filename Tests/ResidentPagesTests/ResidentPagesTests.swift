import Foundation
import Testing

@testable import ResidentPages

/// Read-only pages given back leave resident memory and read the same again; a page shared with
/// other data stays; the program's relocation table is found where the loader left it.
struct ResidentPagesTests {
    /// A mapped file of `pages` pages, every page read once.
    static func mappedFile(pages: Int) throws -> UnsafeRawBufferPointer {
        let path = NSTemporaryDirectory() + "resident-pages-\(UUID().uuidString)"
        let size = pages * ResidentPages.pageSize
        try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let mapped = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0))
        #expect(mapped != MAP_FAILED)
        let bytes = UnsafeRawBufferPointer(start: mapped, count: size)
        _ = bytes.reduce(0) { $0 &+ Int($1) }
        return bytes
    }

    @Test func givenBackPagesAreNotResidentAndReadTheSameAgain() throws {
        let bytes = try Self.mappedFile(pages: 16)
        defer { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
        #expect(try residentPages(bytes) == 16)
        ResidentPages.giveBack(bytes)
        #expect(try residentPages(bytes) == 0)
        let changed = bytes.indices.filter { bytes[$0] != UInt8(truncatingIfNeeded: $0 * 7) }
        #expect(changed.isEmpty)
    }

    @Test func onlyWholePagesInsideTheRangeGo() throws {
        let page = ResidentPages.pageSize
        let bytes = try Self.mappedFile(pages: 4)
        defer { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }
        // From the middle of page 0 to the middle of page 3: pages 1 and 2 go, 0 and 3 stay.
        ResidentPages.giveBack(UnsafeRawBufferPointer(rebasing: bytes[page / 2..<3 * page + page / 2]))
        #expect(try residentPages(bytes) == 2)
        // Less than a page: nothing goes.
        ResidentPages.giveBack(UnsafeRawBufferPointer(rebasing: bytes[10..<page - 10]))
        #expect(try residentPages(bytes) == 2)
    }

    /// The test program's own table: whole x86-64 `Elf64_Rela` entries of relocation types
    /// that exist (below 43), most of them R_X86_64_RELATIVE (8) in a position-independent
    /// Swift program.
    @Test func theProgramsRelocationTableIsFound() throws {
        let table = try #require(ResidentPages.relocationTable())
        #expect(table.count > 24 * 1000 && table.count % 24 == 0, "\(table.count) bytes")
        var (relative, unknown) = (0, 0)
        for index in stride(from: 0, to: table.count, by: 24) {
            let type = table.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self) & 0xFFFF_FFFF
            if type == 8 { relative += 1 }
            if type == 0 || type >= 43 { unknown += 1 }
        }
        let entries = table.count / 24
        #expect(unknown == 0 && relative * 2 > entries, "\(relative) relative, \(unknown) unknown of \(entries)")
        _ = table.reduce(0) { $0 &+ Int($1) }
        ResidentPages.giveBack(table)
        #expect(try residentPages(table) <= 2)  // the two partial pages at its ends
    }
}

func residentPages(_ bytes: UnsafeRawBufferPointer) throws -> Int { try #require(ResidentPages.residentCount(bytes)) }
