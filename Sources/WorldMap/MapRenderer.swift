/// Turns a viewport and pins into a grid of cells: land in Braille or ASCII, then pins on top.
public struct MapRenderer: Sendable {
    /// How land is drawn.
    public enum Mode: Sendable, Hashable {
        /// Braille patterns, 2×4 dots a cell.
        case braille
        /// Plain ASCII (`#` land, `.` coast) for terminals without Braille glyphs.
        case ascii
    }

    public var mode: Mode
    /// Degrees a dot may span at most before the detailed (1:50m) land is used.
    public var detailThreshold: Double

    public init(mode: Mode = .braille, detailThreshold: Double = 0.3) {
        self.mode = mode
        self.detailThreshold = detailThreshold
    }

    /// The land set this view uses (level of detail).
    public func land(for viewport: Viewport) -> LandRings {
        viewport.degreesPerColumn / 2 < detailThreshold ? .detailed : .coarse
    }

    /// Renders one frame.
    public func render(_ viewport: Viewport, pins: [MapPin] = []) -> MapFrame {
        let masks = LandRasterizer(viewport: viewport, cropSouth: viewport.isWorldZoom)
            .masks(land: land(for: viewport))
        var grid = MapGrid(width: viewport.width, height: viewport.height)
        for index in 0..<masks.count {
            grid.cells[index] = landCell(mask: masks[index])
        }
        let placement = PinPlacement(viewport: viewport, pins: pins)
        for (cellIndex, count) in placement.counts.enumerated() where count > 0 {
            let style = PinStyle(rawValue: Int(placement.styles[cellIndex])) ?? .normal
            if count == 1 {
                grid.cells[cellIndex] = MapCell(character: style.character, style: .pin(style))
            } else {
                let digit: Character = count > 9 ? "+" : Character(String(count))
                grid.cells[cellIndex] = MapCell(character: digit, style: .cluster(style))
            }
        }
        return MapFrame(grid: grid, viewport: viewport, pins: pins, pinCells: placement.cellOfPin)
    }

    private func landCell(mask: UInt8) -> MapCell {
        let style: CellStyle = mask == 0 ? .water : (mask == 0xFF ? .land : .coast)
        switch mode {
        case .braille:
            let scalar = Unicode.Scalar(0x2800 + UInt32(mask)) ?? " "
            return MapCell(character: mask == 0 ? " " : Character(scalar), style: style)
        case .ascii:
            let dots = mask.nonzeroBitCount
            return MapCell(character: dots == 0 ? " " : (dots >= 4 ? "#" : "."), style: style)
        }
    }
}
