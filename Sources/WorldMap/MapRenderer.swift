/// Turns a viewport and pins into a grid of cells: land (a light stipple inside, the coast
/// drawn whole), country borders and, close in, state and province borders, then pins, then
/// names (see `MapLabeler`). Close in, land, lakes and rivers come from the detailed map
/// (`DetailMap`, Docs/MapData.md) rather than Natural Earth.
public struct MapRenderer: Sendable {
    /// How land is drawn.
    public enum Mode: Sendable, Hashable {
        /// Braille patterns, 2×4 dots a cell.
        case braille
        /// Plain ASCII for terminals without Braille glyphs: `.` land, `:` coast, `-|/\` borders,
        /// `;` state borders.
        case ascii
    }

    public var mode: Mode
    /// Degrees a dot may span at most before the detailed (1:50m) land and borders are used.
    public var detailThreshold: Double
    /// Degrees a dot may span at most before state and province borders are drawn.
    public var admin1Threshold: Double
    /// Whether borders and names are drawn (off: land and pins only).
    public var showsBordersAndNames: Bool
    /// The detailed land, lakes and rivers for close views (nil: Natural Earth at every zoom).
    public var detailMap: DetailMap?
    /// Degrees a dot may span at most before the detailed map is used (about 5 km: Natural
    /// Earth's 1:50m serves well down to there, and the world and continent views keep its cost).
    public var detailMapThreshold: Double
    /// A country (index into `PlaceLabels.countries`) whose 1:110m outline is drawn over the
    /// map in its own style: the posting preview of a country.
    public var outlinedCountry: Int?

    public init(
        mode: Mode = .braille, detailThreshold: Double = 0.3, admin1Threshold: Double = 0.2,
        showsBordersAndNames: Bool = true, detailMap: DetailMap? = DetailMap.shared, detailMapThreshold: Double = 0.05
    ) {
        self.detailMap = detailMap
        self.detailMapThreshold = detailMapThreshold
        self.mode = mode
        self.detailThreshold = detailThreshold
        self.admin1Threshold = admin1Threshold
        self.showsBordersAndNames = showsBordersAndNames
    }

    /// The land set this view uses (level of detail).
    public func land(for viewport: Viewport) -> LandRings {
        isDetailed(viewport) ? .detailed : .coarse
    }

    private func isDetailed(_ viewport: Viewport) -> Bool { viewport.degreesPerColumn / 2 < detailThreshold }

    /// Whether a view is close enough for the detailed map (whether or not it was found).
    public func wantsDetailedMap(_ viewport: Viewport) -> Bool { viewport.degreesPerColumn / 2 < detailMapThreshold }

    /// The detailed map's level this view draws from, or nil when it draws Natural Earth.
    public func detailLevel(for viewport: Viewport) -> Int? {
        guard let detailMap, wantsDetailedMap(viewport) else { return nil }
        return detailMap.level(forDotDegrees: viewport.degreesPerColumn / 2)
    }

    /// The detailed map's tiles a view shows (empty when it draws Natural Earth).
    func detailTiles(for viewport: Viewport) -> [(tile: DetailTile, shift: Double)] {
        guard let detailMap, let level = detailLevel(for: viewport) else { return [] }
        return detailMap.tiles(level: level, region: viewport.visibleRegion)
    }

    /// A river's width in dots: the largest rivers (rank 1) two dots, the others one.
    static func riverWidth(rank: UInt8) -> Int { rank <= 1 ? 2 : 1 }

    /// The dot layers of a view (2×4 dots a cell, as Braille masks per cell): what the cell
    /// renderer turns into glyphs and `PixelMapRenderer` into pixels, one dot a pixel.
    struct Layers: Equatable {
        var land: [UInt8]
        var coast: [UInt8]
        var borders: [UInt8]
        var admin1: [UInt8]
        var outline: [UInt8]
        /// The detailed map's rivers, already taken out of `land` (they are water).
        var rivers: [UInt8]
    }

    /// Views of at least this many cells (a picture's dot raster: 2,000×1,200 pixels are 300,000)
    /// make their layers on two threads; a terminal frame's few thousand cells stay on one.
    static let parallelCells = 40_000

    /// `twoThreads`: nil for the view's size to decide (`parallelCells`); the tests ask for both.
    func layers(_ viewport: Viewport, dashedAdmin1: Bool = true, twoThreads: Bool? = nil) -> Layers {
        let crop = viewport.isWorldZoom
        let (width, height) = (viewport.width, viewport.height)
        let count = width * height
        let rasterizer = LandRasterizer(viewport: viewport, cropSouth: crop)
        let land = land(for: viewport)
        var layers = Layers(
            land: [UInt8](repeating: 0, count: count), coast: [UInt8](repeating: 0, count: count),
            borders: [UInt8](repeating: 0, count: count), admin1: [UInt8](repeating: 0, count: count),
            outline: [UInt8](repeating: 0, count: count), rivers: [UInt8](repeating: 0, count: count))
        let usesDetail = detailLevel(for: viewport) != nil
        let detail = detailTiles(for: viewport)
        func drawLines(_ borders: inout [UInt8], _ admin1: inout [UInt8], _ outline: inout [UInt8]) {
            guard showsBordersAndNames else { return }
            let lines = LineRasterizer(transform: DotTransform(viewport: viewport, cropSouth: crop), width: width)
            if usesDetail {
                // The detailed map's own borders, which follow its rivers and lakes.
                lines.drawBorders(detail, into: &borders)
            } else {
                lines.draw(isDetailed(viewport) ? .detailedBorders : .coarseBorders, dashed: false, into: &borders)
            }
            if usesDetail {
                // Close in, WDBII's state lines, which follow the same rivers and lakes; Natural
                // Earth's 1:50m ones are kilometres off there (the detailed map covers the
                // countries they draw: the United States, Canada, Brazil, Australia).
                lines.drawStateBorders(detail, dashed: dashedAdmin1, into: &admin1)
            } else if viewport.degreesPerColumn / 2 < admin1Threshold {
                lines.draw(.admin1, dashed: dashedAdmin1, into: &admin1)
            }
            if let country = outlinedCountry, country >= 0, country < PlaceLabels.ringsOfCountry.count {
                lines.draw(rings: PlaceLabels.ringsOfCountry[country], of: .coarse, into: &outline)
            }
        }
        // The land's edge crossings beside the border lines, then each half of the rows filled,
        // then each half's coast (which reads the row on either side, filled by then): on two
        // threads for a large view.
        let parallel = twoThreads ?? (count >= Self.parallelCells)
        var edges = LandRasterizer.Crossings(rows: [], islands: [])
        withUnsafeMutablePointer(to: &edges) { edges in
            withUnsafeMutablePointer(to: &layers) { layers in
                TwoThreads.run(inParallel: parallel) { part in
                    if part == 0 {
                        edges.pointee =
                            usesDetail ? rasterizer.crossings(detail: detail) : rasterizer.crossings(land: land)
                    } else {
                        drawLines(&layers.pointee.borders, &layers.pointee.admin1, &layers.pointee.outline)
                    }
                }
            }
        }
        let middleCellRow = height / 2
        let dotRows = edges.rows.count
        layers.land.withUnsafeMutableBufferPointer { masks in
            TwoThreads.run(inParallel: parallel) { part in
                let rows = part == 0 ? 0..<min(dotRows, middleCellRow * 4) : min(dotRows, middleCellRow * 4)..<dotRows
                rasterizer.fill(edges, dotRows: rows, into: masks)
            }
        }
        rasterizer.setIslandDots(edges, into: &layers.land)
        if !detail.isEmpty {
            // Rivers are water: taken out of the land before the coast is traced, so that their
            // banks are drawn as coast.
            LineRasterizer(transform: DotTransform(viewport: viewport, cropSouth: crop), width: width)
                .drawRivers(detail, width: Self.riverWidth(rank:), into: &layers.rivers)
            for index in 0..<count where layers.rivers[index] != 0 { layers.land[index] &= ~layers.rivers[index] }
        }
        layers.land.withUnsafeBufferPointer { masks in
            layers.coast.withUnsafeMutableBufferPointer { coast in
                TwoThreads.run(inParallel: parallel) { part in
                    let rows = part == 0 ? 0..<middleCellRow : middleCellRow..<height
                    LandOutline.coast(of: masks, width: width, height: height, rows: rows, into: coast)
                }
            }
        }
        return layers
    }

    /// Renders one frame.
    public func render(_ viewport: Viewport, pins: [MapPin] = []) -> MapFrame {
        let crop = viewport.isWorldZoom
        let layers = layers(viewport)
        let (masks, coast, borders, admin1, outline) = (layers.land, layers.coast, layers.borders, layers.admin1, layers.outline)
        var grid = MapGrid(width: viewport.width, height: viewport.height)
        for index in 0..<masks.count where masks[index] | borders[index] | admin1[index] | outline[index] != 0 {
            grid.cells[index] = LandGlyph.cell(
                land: masks[index], coast: coast[index], border: borders[index], admin1: admin1[index],
                outline: outline[index], mode: mode)
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
        if showsBordersAndNames {
            MapLabeler(viewport: viewport, cropSouth: crop)
                .label(&grid, pins: pins, placement: placement, ascii: mode == .ascii)
        }
        return MapFrame(grid: grid, viewport: viewport, pins: pins, pinCells: placement.cellOfPin)
    }
}
