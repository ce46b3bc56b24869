import Foundation
import ResidentPages

/// Lines of a generated static text table, found without copying: a pointer into the binary's
/// read-only data plus the offset where each line starts.
struct TextTable: @unchecked Sendable {
    // The buffer points into a StaticString literal, which lives as long as the program.
    let bytes: UnsafeBufferPointer<UInt8>
    let lineStarts: [Int32]

    init(_ text: StaticString) {
        if text.hasPointerRepresentation {
            bytes = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        } else {
            bytes = UnsafeBufferPointer(start: nil, count: 0)
        }
        var starts: [Int32] = []
        if let base = bytes.baseAddress, !bytes.isEmpty {
            starts.reserveCapacity(bytes.count / 16)
            var offset = 0
            while offset < bytes.count {
                starts.append(Int32(offset))
                guard let newline = memchr(base + offset, 10, bytes.count - offset) else { break }
                offset = UnsafeRawPointer(newline).assumingMemoryBound(to: UInt8.self) - base + 1
            }
        }
        lineStarts = starts
        // Finding the lines read every page of the text; lookups read only a few of them again.
        releaseResidentPages()
    }

    var count: Int { lineStarts.count }

    /// The bytes of line `index`, without its newline.
    func line(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index >= 0, index < lineStarts.count, let base = bytes.baseAddress else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        let start = Int(lineStarts[index])
        let end = index + 1 < lineStarts.count ? Int(lineStarts[index + 1]) - 1 : bytes.count
        return UnsafeBufferPointer(start: base + start, count: max(0, end - start))
    }

    /// The tab-separated fields of line `index`.
    func fields(_ index: Int) -> [Substring] { Self.fields(of: line(index)) }

    /// The tab-separated fields of a line's bytes.
    static func fields(of line: UnsafeBufferPointer<UInt8>) -> [Substring] {
        String(decoding: line, as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false)
    }

    /// Gives back the pages that finding the lines and the lookups have read (`ResidentPages`).
    func releaseResidentPages() { ResidentPages.giveBack(UnsafeRawBufferPointer(bytes)) }
}
