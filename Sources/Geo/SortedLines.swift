import ResidentPages

/// A generated static text table of lines sorted by their first field (bytewise), searched in
/// place: a binary search over byte offsets that steps back to the start of the line it lands
/// in. Unlike `TextTable` it keeps no line starts, so opening it reads none of the text (the
/// name index is 3.2 MB and 184,000 lines: an index of them would cost 0.7 MB of heap, and
/// finding them would make every page of the text resident).
struct SortedLines: @unchecked Sendable {
    // The buffer points into a StaticString literal, which lives as long as the program.
    let bytes: UnsafeBufferPointer<UInt8>

    init(_ text: StaticString) {
        bytes =
            text.hasPointerRepresentation
            ? UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            : UnsafeBufferPointer(start: nil, count: 0)
    }

    /// The line whose first field equals `key`, without its newline.
    func find(key: [UInt8]) -> UnsafeBufferPointer<UInt8>? {
        let start = firstLine(notBefore: key)
        guard start < bytes.count else { return nil }
        let line = line(at: start)
        return Self.compareFirstField(of: line, with: key) == 0 ? line : nil
    }

    /// Up to `limit` lines whose first field starts with `prefix`, in order, each with whether the
    /// field is exactly `prefix`.
    func lines(startingWith prefix: [UInt8], atMost limit: Int) -> [(line: UnsafeBufferPointer<UInt8>, exact: Bool)] {
        var found: [(UnsafeBufferPointer<UInt8>, Bool)] = []
        var start = firstLine(notBefore: prefix)
        while start < bytes.count, found.count < limit {
            let line = line(at: start)
            guard line.count >= prefix.count, line.prefix(prefix.count).elementsEqual(prefix) else { break }
            found.append((line, line.count == prefix.count || line[prefix.count] == 9))
            start += line.count + 1
        }
        return found
    }

    /// Gives back the pages the searches have read (`ResidentPages`).
    func releaseResidentPages() { ResidentPages.giveBack(UnsafeRawBufferPointer(bytes)) }

    /// The byte offset of the first line whose first field does not sort before `key` (the
    /// table's end when every line does).
    private func firstLine(notBefore key: [UInt8]) -> Int {
        // Invariant: the line starting at `low` or later is the answer; lines starting before
        // `low` sort before `key`; the answer starts at or before `high`.
        var (low, high) = (0, bytes.count)
        while low < high {
            // A line start in [low, high): `low` follows a newline, so the probe's line starts there or later.
            let start = lineStart(containing: low + (high - low) / 2)
            let line = line(at: start)
            if Self.compareFirstField(of: line, with: key) < 0 {
                low = start + line.count + 1
            } else if start == low {
                return start
            } else {
                high = start
            }
        }
        return min(low, bytes.count)
    }

    /// The offset of the start of the line holding byte `offset`.
    private func lineStart(containing offset: Int) -> Int {
        var start = offset
        while start > 0, bytes[start - 1] != 10 { start -= 1 }
        return start
    }

    /// The line starting at `start`, without its newline.
    private func line(at start: Int) -> UnsafeBufferPointer<UInt8> {
        guard let base = bytes.baseAddress, start < bytes.count else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        var end = start
        while end < bytes.count, bytes[end] != 10 { end += 1 }
        return UnsafeBufferPointer(start: base + start, count: end - start)
    }

    /// The order of a line's first field (up to its first tab) against `key`, bytewise: -1, 0, 1.
    static func compareFirstField(of line: UnsafeBufferPointer<UInt8>, with key: [UInt8]) -> Int {
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
