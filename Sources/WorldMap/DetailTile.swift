/// One decoded tile of the detailed map: its shoreline rings (land, lakes, islands in lakes, all
/// filled together even-odd), its river lines and country borders, in hundredths of a degree like `LandRings`, so
/// that the same dot transform places both.
struct DetailTile: Sendable {
    /// Ring points, lon and lat interleaved, hundredths of a degree.
    var ringPoints: [Float] = []
    /// Where each ring starts (in points); one extra entry closes the last.
    var ringStarts: [Int32] = [0]
    /// Per ring: min lon, max lon, min lat, max lat (hundredths of a degree).
    var ringBounds: [SIMD4<Float>] = []
    var linePoints: [Float] = []
    var lineStarts: [Int32] = [0]
    /// Per line: a river's rank, 1 (the largest rivers) to 4, `borderRank` for a country border,
    /// or `stateBorderRank` for a first-level one.
    var lineRanks: [UInt8] = []

    /// The rank of a line that is a country border (WDBII), not a river.
    static let borderRank: UInt8 = 16
    /// The rank of a line that is a first-level border (WDBII: states and provinces of the
    /// Americas, Australia's states), drawn instead of Natural Earth's admin-1 lines close in.
    static let stateBorderRank: UInt8 = 17

    var ringCount: Int { ringBounds.count }
    var lineCount: Int { lineRanks.count }

    /// What the tile holds in memory, for the cache's budget.
    var byteCount: Int {
        (ringPoints.count + linePoints.count) * 4 + (ringStarts.count + lineStarts.count) * 4 + ringBounds.count * 16
            + lineRanks.count + 64
    }

    /// Decodes a tile's bytes (build_detail.py's `encode_tile`): a flags byte (bit 0: the tile
    /// is land underneath its rings), the rings, then the lines, each as a point count and
    /// zigzag-varint deltas of quantized coordinates. Nil for bytes that do not decode.
    init?(bytes: UnsafeRawBufferPointer, west: Double, south: Double, tileDegrees: Double, steps: Int) {
        var reader = VarintReader(bytes: bytes)
        guard let flags = reader.byte() else { return nil }
        let unit = tileDegrees * 100 / Double(steps)
        let (originX, originY) = (west * 100, south * 100)
        if flags & 1 != 0 {
            // Land under everything: the tile's own square as one more ring.
            let (east, north) = (originX + tileDegrees * 100, originY + tileDegrees * 100)
            let corners = [originX, originY, east, originY, east, north, originX, north].map { Float($0) }
            ringPoints.append(contentsOf: corners)
            ringStarts.append(4)
            ringBounds.append(SIMD4(Float(originX), Float(east), Float(originY), Float(north)))
        }
        func readPoints(into points: inout [Float]) -> SIMD4<Float>? {
            guard let count = reader.varint(), count <= reader.remaining else { return nil }
            var (x, y) = (0, 0)
            var box = SIMD4<Float>(.infinity, -.infinity, .infinity, -.infinity)
            points.reserveCapacity(points.count + count * 2)
            for _ in 0..<count {
                guard let dx = reader.zigzag(), let dy = reader.zigzag() else { return nil }
                x += dx
                y += dy
                let lon = Float(originX + Double(x) * unit)
                let lat = Float(originY + Double(y) * unit)
                points.append(lon)
                points.append(lat)
                box = SIMD4(min(box.x, lon), max(box.y, lon), min(box.z, lat), max(box.w, lat))
            }
            return box
        }
        guard let rings = reader.varint() else { return nil }
        for _ in 0..<rings {
            guard let box = readPoints(into: &ringPoints) else { return nil }
            ringStarts.append(Int32(ringPoints.count / 2))
            ringBounds.append(box)
        }
        guard let lines = reader.varint() else { return nil }
        for _ in 0..<lines {
            guard let rank = reader.byte(), readPoints(into: &linePoints) != nil else { return nil }
            lineStarts.append(Int32(linePoints.count / 2))
            lineRanks.append(rank)
        }
    }
}

/// Reads bytes and LEB128 varints from a tile, never past its end.
struct VarintReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var remaining: Int { bytes.count - offset }

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint() -> Int? {
        var value = 0
        var shift = 0
        while let byte = byte() {
            value |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
            if shift > 56 { return nil }
        }
        return nil
    }

    mutating func zigzag() -> Int? {
        guard let value = varint() else { return nil }
        return (value >> 1) ^ -(value & 1)
    }
}
