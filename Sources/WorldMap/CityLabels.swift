/// The bundled cities (Sources/WorldMap/Generated/MapLabels.swift), most populous first, kept
/// compact: coordinates and populations in flat arrays, each name read from the generated text
/// (the binary's read-only data) only when a label is placed or asked for.
///
/// A `[PlaceLabel]` of the 12,380 cities held about 1 MB of heap (two strings and three numbers
/// each, array growth slack); this holds 28 bytes a city (Benchmarks.md, "Terminal app").
public struct CityLabels: RandomAccessCollection, @unchecked Sendable {
    // The buffer points into a StaticString literal, which lives as long as the program.
    private let text: UnsafeBufferPointer<UInt8>
    private let latitudes: [Double]
    private let longitudes: [Double]
    private let ranks: [Int32]
    /// Per city, the offsets of its line's start and end (without the newline) in `text`.
    private let lineStarts: [Int32]
    private let lineEnds: [Int32]

    /// Lines of `name<TAB>lat<TAB>lon<TAB>rank[<TAB>ascii]`; lines that do not parse are left out.
    init(_ literal: StaticString) {
        text =
            literal.hasPointerRepresentation
            ? UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            : UnsafeBufferPointer(start: nil, count: 0)
        var latitudes: [Double] = []
        var longitudes: [Double] = []
        var ranks: [Int32] = []
        var starts: [Int32] = []
        var ends: [Int32] = []
        var start = 0
        let bytes = text
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 10 { end += 1 }
            let fields = Self.fieldRanges(bytes, start, end)
            if fields.count >= 4, let lat = Self.double(bytes, fields[1]), let lon = Self.double(bytes, fields[2]),
                let rank = Self.int(bytes, fields[3])
            {
                latitudes.append(lat)
                longitudes.append(lon)
                ranks.append(rank)
                starts.append(Int32(start))
                ends.append(Int32(end))
            }
            start = end + 1
        }
        self.latitudes = latitudes
        self.longitudes = longitudes
        self.ranks = ranks
        self.lineStarts = starts
        self.lineEnds = ends
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ranks.count }

    /// The city as a label (its names read from the text).
    public subscript(index: Int) -> PlaceLabel {
        let fields = fields(of: index)
        let name = fields[0]
        let ascii: String? = fields.count > 4 ? (fields[4].isEmpty ? nil : fields[4]) : name
        return PlaceLabel(
            name: name, asciiName: ascii, latitude: latitudes[index], longitude: longitudes[index],
            rank: Int(ranks[index]))
    }

    public func latitude(_ index: Int) -> Double { latitudes[index] }
    public func longitude(_ index: Int) -> Double { longitudes[index] }
    /// People living there: larger ones are placed first.
    public func rank(_ index: Int) -> Int { Int(ranks[index]) }
    /// The city's name as written.
    public func name(_ index: Int) -> String { fields(of: index, upTo: 1)[0] }

    private func fields(of index: Int, upTo limit: Int = .max) -> [String] {
        let ranges = Self.fieldRanges(text, Int(lineStarts[index]), Int(lineEnds[index]))
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

    private static func double(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }

    private static func int(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int32? {
        Int32(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }
}
