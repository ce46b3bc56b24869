/// Fills land polygons into a dot raster of 2×4 dots a cell, stored as Braille masks per cell.
///
/// Even-odd scanline filling over all rings in view: shared country borders cancel out, so
/// neighbouring countries merge into one land mass without a polygon union.
struct LandRasterizer {
    let viewport: Viewport
    let cropSouth: Bool

    /// The Braille bit of the dot in column `dx` (0, 1) and row `dy` (0…3) of a cell: dots 1–3 and
    /// 4–6 are bits 0–2 and 3–5, dots 7 and 8 bits 6 and 7. A function, not a table: the hot loops
    /// of the rasterisers call it per dot.
    @inline(__always) static func dotBit(_ dx: Int, _ dy: Int) -> UInt8 {
        dy == 3 ? (dx == 0 ? 0x40 : 0x80) : UInt8(truncatingIfNeeded: 1 << (dy + 3 * dx))
    }

    /// Where each dot row crosses the land's edges, and the dots of islands smaller than a dot:
    /// the first half of a view's land masks, which `fill` finishes a range of rows at a time
    /// (the halves of the rows, on two threads for a large view: `MapRenderer.layers`), then
    /// `setIslandDots`.
    struct Crossings {
        var rows: [[Float]]
        var islands: [(x: Int, y: Int)]
    }

    func crossings(land: LandRings) -> Crossings {
        let transform = DotTransform(viewport: viewport, cropSouth: cropSouth)
        let (scale, scaleY, originY) = (transform.scaleX, transform.scaleY, transform.originY)
        let lastRow = transform.lastRow
        guard lastRow >= 0 else { return Crossings(rows: [], islands: []) }
        var crossings = [[Float]](repeating: [], count: lastRow + 1)
        var islands: [(x: Int, y: Int)] = []
        for ring in 0..<land.ringCount {
            let box = land.bounds[ring]
            for offset in transform.offsets(forBox: box) {
                let shiftX = transform.originX + Double(offset) * scale
                land.coordinates.withUnsafeBufferPointer { points in
                    addRing(
                        points, start: land.ringStarts[ring], end: land.ringStarts[ring + 1], shiftX: shiftX,
                        originY: originY, scale: (scale, scaleY), lastRow: lastRow, into: &crossings)
                }
                // Islands smaller than a dot still get one dot.
                let spanX = Double(Int(box.1) - Int(box.0)) * scale
                let spanY = Double(Int(box.3) - Int(box.2)) * scaleY
                if spanX < 1.5 && spanY < 1.5 {
                    islands.append(
                        (Int(shiftX + Double(Int(box.0) + Int(box.1)) / 2 * scale),
                         Int(originY - Double(Int(box.2) + Int(box.3)) / 2 * scaleY)))
                }
            }
        }
        return Crossings(rows: crossings, islands: islands)
    }

    /// The crossings of the detailed map's tiles in view (`DetailMap.tiles`): every tile's rings
    /// are closed within the tile, so the tiles off screen add nothing to a row's parity.
    func crossings(detail tiles: [(tile: DetailTile, shift: Double)]) -> Crossings {
        let transform = DotTransform(viewport: viewport, cropSouth: cropSouth)
        let (scale, scaleY, originY) = (transform.scaleX, transform.scaleY, transform.originY)
        let lastRow = transform.lastRow
        guard lastRow >= 0 else { return Crossings(rows: [], islands: []) }
        var crossings = [[Float]](repeating: [], count: lastRow + 1)
        var islands: [(x: Int, y: Int)] = []
        for (tile, shift) in tiles {
            let shiftX = transform.originX + shift * scale
            tile.ringPoints.withUnsafeBufferPointer { points in
                for ring in 0..<tile.ringCount {
                    let box = tile.ringBounds[ring]
                    let (top, bottom) = (originY - Double(box.w) * scaleY, originY - Double(box.z) * scaleY)
                    let (left, right) = (shiftX + Double(box.x) * scale, shiftX + Double(box.y) * scale)
                    guard bottom >= 0, top <= Double(lastRow + 1), right >= 0, left <= Double(transform.dotsWide) else {
                        continue
                    }
                    addRing(
                        points, start: Int(tile.ringStarts[ring]), end: Int(tile.ringStarts[ring + 1]), shiftX: shiftX,
                        originY: originY, scale: (scale, scaleY), lastRow: lastRow, into: &crossings)
                    if right - left < 1.5 && bottom - top < 1.5 {
                        islands.append((Int((left + right) / 2), Int((top + bottom) / 2)))
                    }
                }
            }
        }
        return Crossings(rows: crossings, islands: islands)
    }

    /// Fills the spans between the crossings of `dotRows` (whole cells' rows: a multiple of 4
    /// apart, so that two ranges never write one cell) into `out`, sorting those rows.
    func fill(_ edges: Crossings, dotRows: Range<Int>, into out: UnsafeMutableBufferPointer<UInt8>) {
        let width = viewport.width
        let dotsWide = DotTransform(viewport: viewport, cropSouth: cropSouth).dotsWide
        for row in dotRows where !edges.rows[row].isEmpty {
            let xs = edges.rows[row].sorted()
            let base = (row >> 2) * width
            let (left, right) = (Self.dotBit(0, row & 3), Self.dotBit(1, row & 3))
            var index = 0
            while index + 1 < xs.count {
                var x = max(0, Int((Double(xs[index]) - 0.5).rounded(.up)))
                let end = min(dotsWide - 1, Int((Double(xs[index + 1]) - 0.5).rounded(.up)) - 1)
                index += 2
                guard x <= end else { continue }
                // A span's odd first dot and even last dot alone; the cells between whole.
                if x & 1 == 1 {
                    out[base + (x >> 1)] |= right
                    x += 1
                }
                while x + 1 <= end {
                    out[base + (x >> 1)] |= left | right
                    x += 2
                }
                if x == end { out[base + (x >> 1)] |= left }
            }
        }
    }

    func setIslandDots(_ edges: Crossings, into masks: inout [UInt8]) {
        let lastRow = edges.rows.count - 1
        for island in edges.islands { setDot(x: island.x, y: island.y, lastRow: lastRow, masks: &masks) }
    }

    private func setDot(x: Int, y: Int, lastRow: Int, masks: inout [UInt8]) {
        guard x >= 0, x < viewport.width * 2, y >= 0, y <= lastRow else { return }
        masks[(y >> 2) * viewport.width + (x >> 1)] |= Self.dotBit(x & 1, y & 3)
    }

    /// Adds where each dot row crosses the edges of the ring `start..<end` of `points` (lon and
    /// lat interleaved, hundredths of a degree: Natural Earth's `Int16` or the detailed map's `Float`).
    private func addRing<Coordinate: DotCoordinate>(
        _ points: UnsafeBufferPointer<Coordinate>, start: Int, end: Int, shiftX: Double, originY: Double,
        scale: (x: Double, y: Double), lastRow: Int, into crossings: inout [[Float]]
    ) {
        guard end - start >= 3 else { return }
        var previousX = shiftX + points[(end - 1) * 2].hundredths * scale.x
        var previousY = originY - points[(end - 1) * 2 + 1].hundredths * scale.y
        for index in start..<end {
            let x = shiftX + points[index * 2].hundredths * scale.x
            let y = originY - points[index * 2 + 1].hundredths * scale.y
            if y != previousY {
                let (x1, y1, x2, y2) = y < previousY ? (x, y, previousX, previousY) : (previousX, previousY, x, y)
                let firstRow = max(0, Int((y1 - 0.5).rounded(.up)))
                let lastEdgeRow = min(lastRow, Int((y2 - 0.5).rounded(.up)) - 1)
                if firstRow <= lastEdgeRow {
                    let slope = (x2 - x1) / (y2 - y1)
                    for row in firstRow...lastEdgeRow {
                        crossings[row].append(Float(x1 + (Double(row) + 0.5 - y1) * slope))
                    }
                }
            }
            previousX = x
            previousY = y
        }
    }
}

/// A coordinate of a ring in hundredths of a degree, as the rasterizers read it.
protocol DotCoordinate {
    var hundredths: Double { get }
}

extension Int16: DotCoordinate {
    @inline(__always) var hundredths: Double { Double(self) }
}

extension Float: DotCoordinate {
    @inline(__always) var hundredths: Double { Double(self) }
}
