import WorldMap

/// The Map pane as a picture, where the terminal shows images: what to draw, as plain values.
/// The backend rasterises and sends it only when it differs from the last one sent, and tests
/// compare it like the cell grid. The cell grid still draws the names, the annotation and every
/// overlay. The picture leaves the cells of what is drawn over the map transparent (`holes`), so
/// that they show through; the names (`labels`) too where the protocol cannot put text over a
/// picture (Sixel, iTerm2), while Kitty's picture lies under the text.
public struct PictureScene: Sendable, Equatable {
    /// Which picture this is: the Map pane's (1) or the posting preview's (2). A Kitty image
    /// goes by this id.
    public var id: Int
    /// The cells the picture covers.
    public var rect: Rect
    /// The view: the cell map's centre and zoom, drawn at the terminal's pixel resolution.
    public var map: MapView
    public var pins: [MapPin]
    /// A country picked out in its own colour (the preview of a country).
    public var outlinedCountry: Int?
    /// How many rectangles the buffer had filled when the picture's pane was drawn: the ones
    /// after are drawn over it.
    public var filledBefore = 0
    /// The names the pane writes on the map: cell index in `rect` (row by row) → the cell.
    public var labels: [Int: Cell]
    /// One flag a cell of `rect`, row by row: something other than a name is drawn there (the
    /// annotation, an overlay, a modal), and shows through.
    public var holes: [Bool]

    public init(
        id: Int = 1, rect: Rect, map: MapView, pins: [MapPin], outlinedCountry: Int? = nil, labels: [Int: Cell] = [:],
        holes: [Bool] = []
    ) {
        self.id = id
        self.outlinedCountry = outlinedCountry
        self.rect = rect
        self.map = map
        self.pins = pins
        self.labels = labels
        self.holes = holes
    }

    /// Marks the cells of `rect` where `buffer` holds something (a character or a background)
    /// other than the pane's own names, and every cell of the boxes filled after the picture was
    /// made (`Buffer.filled` from `filledBefore` on): the annotation, overlays, modals, whole,
    /// so that typing in one changes nothing here. A name still there keeps its `labels` entry;
    /// one drawn over loses it.
    public mutating func makeHoles(for buffer: Buffer) {
        holes = []
        holes.reserveCapacity(rect.width * rect.height)
        let boxes = buffer.filled.dropFirst(filledBefore).filter { $0.intersects(rect) }
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let index = (y - rect.y) * rect.width + (x - rect.x)
                let cell = buffer[x, y]
                if let label = labels[index], label == cell {
                    holes.append(false)
                    continue
                }
                labels[index] = nil
                holes.append(
                    cell.character != " " || cell.style.background != nil || cell.style.reverse
                        || boxes.contains { $0.contains(x: x, y: y) })
            }
        }
    }

    /// The picture's cells (relative to `rect`) in at most four rectangles around the box that
    /// bounds every hole — above it, below it, left and right of it — for a protocol whose
    /// transparency cannot be trusted (Sixel: mlterm paints a transparent pixel black over the
    /// text, xterm keeps the pixels an earlier picture left there). The whole picture when it has
    /// no hole.
    public var piecesAroundHoles: [Rect] {
        guard let box = holesBox else { return [Rect(x: 0, y: 0, width: rect.width, height: rect.height)] }
        let (left, right, top, bottom) = (box.x, box.maxX, box.y, box.maxY)
        return [
            Rect(x: 0, y: 0, width: rect.width, height: top),
            Rect(x: 0, y: bottom, width: rect.width, height: rect.height - bottom),
            Rect(x: 0, y: top, width: left, height: bottom - top),
            Rect(x: right, y: top, width: rect.width - right, height: bottom - top),
        ].filter { $0.width > 0 && $0.height > 0 }
    }

    /// The box that bounds every hole (relative to `rect`): the cells that `piecesAroundHoles`
    /// leave without picture. `nil` when there is no hole.
    public var holesBox: Rect? {
        let cells = holes.indices.filter { holes[$0] }
        guard !cells.isEmpty, rect.width > 0 else { return nil }
        let columns = cells.map { $0 % rect.width }
        let rows = cells.map { $0 / rect.width }
        let (left, top) = (columns.min()!, rows.min()!)
        return Rect(x: left, y: top, width: columns.max()! + 1 - left, height: rows.max()! + 1 - top)
    }

    /// Marks the cells of `rect` (another picture's, over this one) as holes.
    public mutating func makeHoles(over other: Rect) {
        let (top, bottom) = (max(rect.y, other.y), min(rect.maxY, other.maxY))
        let (left, right) = (max(rect.x, other.x), min(rect.maxX, other.maxX))
        guard holes.count == rect.width * rect.height, top < bottom, left < right else { return }
        for y in top..<bottom {
            for x in left..<right {
                let index = (y - rect.y) * rect.width + (x - rect.x)
                holes[index] = true
                labels[index] = nil
            }
        }
    }

    /// The picture at `cell` pixels a cell, in `theme`'s colours, the holes transparent. With
    /// `textOver` false (a protocol that draws the picture over the text: Sixel, iTerm2), the
    /// names are written into the picture (`LabelFont`), in their cells' colours; a character
    /// the font lacks leaves its cell clear instead, for the terminal's text.
    public func image(cell: (width: Int, height: Int), theme: Theme.Name, textOver: Bool) -> IndexedImage {
        let (width, height) = (rect.width * cell.width, rect.height * cell.height)
        // The dot raster has 2×4 dots a cell: a viewport of that many cells covers the pane's view.
        let viewport = map.viewport(width: max(1, width / 2), height: max(1, height / 4))
        var renderer = MapRenderer()
        renderer.outlinedCountry = outlinedCountry
        let palette = MapPalette.pixels(theme)
        var image = PixelMapRenderer(renderer: renderer).render(viewport, pins: pins, palette: palette)
        var clear = holes
        if !textOver {
            for (index, label) in labels where clear.indices.contains(index) && !clear[index] {
                let color = MapPalette.labelColor(label.style, theme: theme)
                let written =
                    !label.isContinuation
                    && image.write(
                        label.character, x: index % rect.width * cell.width, y: index / rect.width * cell.height, cell: cell,
                        color ?? palette.outline, halo: palette.sea)
                if !written { clear[index] = true }
            }
        }
        image.clear(cells: clear, columns: rect.width, cell: cell)
        return image
    }
}

extension Buffer {
    /// Writes a map's cells into `rect` in the map's colours. With a `picture` (the map drawn as
    /// one), only the names become cells, each noted in the picture's `labels`, and the picture
    /// learns which of the buffer's filled boxes come after it (`filledBefore`).
    mutating func putMap(_ grid: MapGrid, in rect: Rect, picture: inout PictureScene?) {
        picture?.filledBefore = filled.count
        for row in 0..<rect.height {
            for column in 0..<rect.width {
                guard let cell = grid[column, row] else { continue }
                let drawn = Cell(cell.character, style: MapPalette.style(for: cell.style))
                if picture != nil {
                    guard case .label = cell.style else { continue }
                    picture?.labels[row * rect.width + column] = drawn
                }
                self[rect.x + column, rect.y + row] = drawn
            }
        }
    }
}
