import WorldMap

/// What a picture of the map says in writing when it stands alone (`onthemap map --format png`,
/// a slide): the names the map shows at its view, a title line, and the data's attribution —
/// drawn with `LabelFont` over a one-pixel halo of the sea's colour.
public enum PictureCaptions {
    /// The pixels of a name's cell: the font's own size.
    public static let cell = (width: LabelFont.width, height: LabelFont.height)
    /// What GeoNames' CC BY 4.0 and Natural Earth ask of a map made from their data.
    public static let attribution = "© GeoNames, Natural Earth"
    /// The same, and GSHHG's (LGPL), for a close view drawn from the detailed map (`DetailMap`).
    public static let detailedAttribution = "© GeoNames, Natural Earth, GSHHG"

    /// Writes onto `image` the names a cell map of the same view places (`names`, made at
    /// `cell`-pixel cells, so its names sit where the picture's places are), then `title` at the
    /// top left (twice the font's size where the picture is 400 pixels high or more) and the
    /// attribution at the bottom right (`detailedAttribution` when `isDetailed`); a name's cell
    /// under either is left out.
    public static func write(
        title: String, names: MapGrid, onto image: inout IndexedImage, theme: Theme.Name, isDetailed: Bool = false
    ) {
        let palette = MapPalette.pixels(theme)
        let ink = theme == .light || theme == .mono ? RGB(0, 0, 0) : RGB(240, 240, 240)
        let scale = image.height >= 400 ? 2 : 1
        let big = (width: cell.width * scale, height: cell.height * scale)
        let margin = 4 * scale
        let titleCells = min(title.count, max(0, (image.width - margin) / big.width))
        let credit = Array(isDetailed ? detailedAttribution : attribution)
        let creditLeft = max(0, image.width - margin - credit.count * cell.width)
        let creditTop = image.height - margin - cell.height
        // Boxes kept clear of names, a halo's width around them.
        let titleBox = (x: 0, y: 0, width: margin + titleCells * big.width + 2, height: margin + big.height + 2)
        let creditBox = (x: creditLeft - 2, y: creditTop - 2, width: image.width - creditLeft + 2, height: image.height - creditTop + 2)
        func clear(_ x: Int, _ y: Int) -> Bool {
            [titleBox, creditBox].allSatisfy { box in
                x + cell.width <= box.x || x >= box.x + box.width || y + cell.height <= box.y || y >= box.y + box.height
            }
        }
        func isName(_ column: Int, _ row: Int) -> Bool {
            if let found = names[column, row], case .label = found.style { return true }
            return false
        }
        for row in 0..<names.height {
            var column = 0
            while column < names.width {
                guard isName(column, row) else {
                    column += 1
                    continue
                }
                // A name whole or not at all: a run of name cells under a caption is left out.
                var end = column
                while end < names.width, isName(end, row) { end += 1 }
                if (column..<end).allSatisfy({ clear($0 * cell.width, row * cell.height) }) {
                    for index in column..<end {
                        guard let found = names[index, row] else { continue }
                        let color = MapPalette.labelColor(MapPalette.style(for: found.style), theme: theme) ?? palette.outline
                        image.write(found.character, x: index * cell.width, y: row * cell.height, cell: cell, color, halo: palette.sea)
                    }
                }
                column = end
            }
        }
        for (offset, character) in title.prefix(titleCells).enumerated() {
            image.write(character, x: margin + offset * big.width, y: margin, cell: big, ink, halo: palette.sea)
        }
        for (offset, character) in credit.enumerated() where creditLeft + offset * cell.width >= 0 {
            image.write(character, x: creditLeft + offset * cell.width, y: creditTop, cell: cell, ink, halo: palette.sea)
        }
    }
}
