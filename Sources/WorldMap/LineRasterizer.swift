/// Draws polylines into a dot raster (Braille masks per cell), clipped to the view.
struct LineRasterizer {
    let transform: DotTransform
    let width: Int

    /// Sets the dots of every line in view; `dashed` leaves every other pair of dots out.
    func draw(_ lines: MapLines, dashed: Bool, into masks: inout [UInt8]) {
        let paths = lines.paths
        for line in 0..<paths.ringCount {
            for offset in transform.offsets(forBox: paths.bounds[line]) {
                drawLine(paths, line, offset: offset, dashed: dashed, into: &masks)
            }
        }
    }

    /// Sets the dots of some closed rings (a country's outline).
    func draw(rings: [Int], of land: LandRings, into masks: inout [UInt8]) {
        for ring in rings where ring < land.ringCount {
            for offset in transform.offsets(forBox: land.bounds[ring]) {
                drawLine(land, ring, offset: offset, dashed: false, closed: true, into: &masks)
            }
        }
    }

    /// Sets the dots of the detailed map's rivers in view, `width(rank)` dots wide (1 or 2).
    func drawRivers(_ tiles: [(tile: DetailTile, shift: Double)], width: (UInt8) -> Int, into masks: inout [UInt8]) {
        drawDetailLines(tiles, where: { $0 < DetailTile.borderRank }, width: width, into: &masks)
    }

    /// Sets the dots of the detailed map's country borders in view (WDBII, one dot wide).
    func drawBorders(_ tiles: [(tile: DetailTile, shift: Double)], into masks: inout [UInt8]) {
        drawDetailLines(tiles, where: { $0 == DetailTile.borderRank }, width: { _ in 1 }, into: &masks)
    }

    /// Sets the dots of the detailed map's first-level borders in view (WDBII's states and
    /// provinces), dashed like Natural Earth's admin-1 lines when `dashed`.
    func drawStateBorders(_ tiles: [(tile: DetailTile, shift: Double)], dashed: Bool, into masks: inout [UInt8]) {
        drawDetailLines(
            tiles, where: { $0 == DetailTile.stateBorderRank }, width: { _ in 1 }, dashed: dashed, into: &masks)
    }

    private func drawDetailLines(
        _ tiles: [(tile: DetailTile, shift: Double)], where isDrawn: (UInt8) -> Bool, width: (UInt8) -> Int,
        dashed: Bool = false, into masks: inout [UInt8]
    ) {
        for (tile, shift) in tiles {
            let shiftX = transform.originX + shift * transform.scaleX
            tile.linePoints.withUnsafeBufferPointer { points in
                for line in 0..<tile.lineCount where isDrawn(tile.lineRanks[line]) {
                    let (start, end) = (Int(tile.lineStarts[line]), Int(tile.lineStarts[line + 1]))
                    guard end - start >= 2 else { continue }
                    let wide = width(tile.lineRanks[line]) > 1
                    var step = 0
                    var x0 = shiftX + Double(points[start * 2]) * transform.scaleX
                    var y0 = transform.originY - Double(points[start * 2 + 1]) * transform.scaleY
                    for index in (start + 1)..<end {
                        let x1 = shiftX + Double(points[index * 2]) * transform.scaleX
                        let y1 = transform.originY - Double(points[index * 2 + 1]) * transform.scaleY
                        segment(x0, y0, x1, y1, dashed: dashed, step: &step, into: &masks)
                        if wide {
                            // The second dot beside the first, across the line's main direction.
                            let (dx, dy) = abs(x1 - x0) >= abs(y1 - y0) ? (0.0, 1.0) : (1.0, 0.0)
                            segment(x0 + dx, y0 + dy, x1 + dx, y1 + dy, dashed: false, step: &step, into: &masks)
                        }
                        x0 = x1
                        y0 = y1
                    }
                }
            }
        }
    }

    private func drawLine(
        _ paths: LandRings, _ line: Int, offset: Int, dashed: Bool, closed: Bool = false, into masks: inout [UInt8]
    ) {
        let start = paths.ringStarts[line]
        let end = paths.ringStarts[line + 1]
        guard end - start >= 2 else { return }
        let shiftX = transform.originX + Double(offset) * transform.scaleX
        var step = 0
        paths.coordinates.withUnsafeBufferPointer { points in
            var x0 = shiftX + Double(points[start * 2]) * transform.scaleX
            var y0 = transform.originY - Double(points[start * 2 + 1]) * transform.scaleY
            for index in (start + 1)..<end {
                let x1 = shiftX + Double(points[index * 2]) * transform.scaleX
                let y1 = transform.originY - Double(points[index * 2 + 1]) * transform.scaleY
                segment(x0, y0, x1, y1, dashed: dashed, step: &step, into: &masks)
                x0 = x1
                y0 = y1
            }
            if closed {
                let x1 = shiftX + Double(points[start * 2]) * transform.scaleX
                let y1 = transform.originY - Double(points[start * 2 + 1]) * transform.scaleY
                segment(x0, y0, x1, y1, dashed: false, step: &step, into: &masks)
            }
        }
    }

    /// One segment, clipped to the raster (Liang–Barsky), one dot per step along its longer axis.
    private func segment(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, dashed: Bool, step: inout Int,
        into masks: inout [UInt8]
    ) {
        let dx = x1 - x0
        let dy = y1 - y0
        var t0 = 0.0
        var t1 = 1.0
        let maxX = Double(transform.dotsWide)
        let maxY = Double(transform.lastRow + 1)
        func clip(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let r = q / p
            if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            return true
        }
        guard clip(-dx, x0), clip(dx, maxX - x0), clip(-dy, y0), clip(dy, maxY - y0), t0 <= t1 else { return }
        let length = max(abs(dx), abs(dy)) * (t1 - t0)
        let count = max(1, Int(length.rounded(.up)))
        for i in 0...count {
            let t = t0 + (t1 - t0) * Double(i) / Double(count)
            let x = Int((x0 + dx * t).rounded(.down))
            let y = Int((y0 + dy * t).rounded(.down))
            step += 1
            if dashed && (step / 2) % 2 == 1 { continue }
            guard x >= 0, x < transform.dotsWide, y >= 0, y <= transform.lastRow else { continue }
            masks[(y >> 2) * width + (x >> 1)] |= LandRasterizer.dotBit(x & 1, y & 3)
        }
    }
}
