import Foundation

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
    func fields(_ index: Int) -> [Substring] {
        let text = String(decoding: line(index), as: UTF8.self)
        return text.split(separator: "\t", omittingEmptySubsequences: false).map { $0 }
    }

    /// Binary search over lines sorted by their first field (compared as bytes); returns the
    /// line index whose first field equals `key`.
    func find(key: [UInt8]) -> Int? {
        var low = 0
        var high = lineStarts.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let order = compareFirstField(of: line(middle), with: key)
            if order == 0 { return middle }
            if order < 0 { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    private func compareFirstField(of line: UnsafeBufferPointer<UInt8>, with key: [UInt8]) -> Int {
        var index = 0
        while true {
            let a: Int = index < line.count && line[index] != 9 ? Int(line[index]) : -1
            let b: Int = index < key.count ? Int(key[index]) : -1
            if a != b { return a < b ? -1 : 1 }
            if a == -1 { return 0 }
            index += 1
        }
    }
}
