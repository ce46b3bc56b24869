/// The bundled cities (Sources/WorldMap/Generated/MapLabels.swift), most populous first, kept
/// compact: coordinates and populations in flat arrays, each name read from the generated text
/// (the binary's read-only data) only when a label is placed or asked for.
///
/// A `[PlaceLabel]` of the 12,380 cities held about 1 MB of heap (two strings and three numbers
/// each, array growth slack); this holds 16 bytes a city in arrays of exactly the cities' count
/// (Benchmarks.md, "Terminal app"). The generator writes coordinates to three decimals (about
/// 100 m), so they are held as whole thousandths of a degree and read back as the same `Double`s
/// the text parses to.
public struct CityLabels: RandomAccessCollection, @unchecked Sendable {
    // The buffer points into a StaticString literal, which lives as long as the program.
    private let text: UnsafeBufferPointer<UInt8>
    /// Per city, its latitude then its longitude in thousandths of a degree.
    private let thousandths: [Int32]
    private let ranks: [Int32]
    /// Per city, the offset of its line in `text` (the line runs to the next newline).
    private let lineStarts: [Int32]

    /// Lines of `name<TAB>lat<TAB>lon<TAB>rank[<TAB>ascii]`; lines that do not parse, and
    /// coordinates with more than three decimals, are left out.
    init(_ literal: StaticString) {
        text =
            literal.hasPointerRepresentation
            ? UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            : UnsafeBufferPointer(start: nil, count: 0)
        let bytes = text
        let lines = bytes.reduce(1) { $1 == 10 ? $0 + 1 : $0 }
        var thousandths: [Int32] = []
        var ranks: [Int32] = []
        var starts: [Int32] = []
        thousandths.reserveCapacity(2 * lines)
        ranks.reserveCapacity(lines)
        starts.reserveCapacity(lines)
        var start = 0
        while start < bytes.count {
            let end = Self.lineEnd(bytes, from: start)
            let fields = Self.fieldRanges(bytes, start, end)
            if fields.count >= 4, let lat = Self.thousandths(bytes, fields[1]), let lon = Self.thousandths(bytes, fields[2]),
                let rank = Self.int(bytes, fields[3])
            {
                thousandths.append(lat)
                thousandths.append(lon)
                ranks.append(rank)
                starts.append(Int32(start))
            }
            start = end + 1
        }
        self.thousandths = thousandths
        self.ranks = ranks
        self.lineStarts = starts
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ranks.count }

    /// The city as a label (its names read from the text).
    public subscript(index: Int) -> PlaceLabel {
        let fields = fields(of: index)
        let name = fields[0]
        let ascii: String? = fields.count > 4 ? (fields[4].isEmpty ? nil : fields[4]) : name
        return PlaceLabel(
            name: name, asciiName: ascii, latitude: latitude(index), longitude: longitude(index),
            rank: Int(ranks[index]))
    }

    public func latitude(_ index: Int) -> Double { Double(thousandths[2 * index]) / 1000 }
    public func longitude(_ index: Int) -> Double { Double(thousandths[2 * index + 1]) / 1000 }
    /// People living there: larger ones are placed first.
    public func rank(_ index: Int) -> Int { Int(ranks[index]) }
    /// The city's name as written.
    public func name(_ index: Int) -> String { fields(of: index, upTo: 1)[0] }

    private func fields(of index: Int, upTo limit: Int = .max) -> [String] {
        let start = Int(lineStarts[index])
        let ranges = Self.fieldRanges(text, start, Self.lineEnd(text, from: start))
        return ranges.prefix(limit).map { String(decoding: UnsafeBufferPointer(rebasing: text[$0]), as: UTF8.self) }
    }

    private static func fieldRanges(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var fieldStart = start
        for offset in start..<end where bytes[offset] == 9 {
            ranges.append(fieldStart..<offset)
            fieldStart = offset + 1
        }
        ranges.append(fieldStart..<end)
        return ranges
    }

    private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var end = start
        while end < bytes.count, bytes[end] != 10 { end += 1 }
        return end
    }

    /// A coordinate of at most three decimals in thousandths of a degree (exact: the quotient
    /// of the two whole numbers rounds to the same `Double` as the decimal does).
    private static func thousandths(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int32? {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        guard let value = Double(text), abs(value) <= 180 else { return nil }
        let whole = (value * 1000).rounded()
        guard Double(whole) / 1000 == value else { return nil }
        return Int32(whole)
    }

    private static func int(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int32? {
        Int32(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }
}
