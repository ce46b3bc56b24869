/// The glyphs of the names written on pictures of the map: Terminus Bold 8×16
/// (`Generated/LabelFontGlyphs.swift`, SIL OFL 1.1), a byte a row, the leftmost pixel the high bit.
public enum LabelFont {
    public static let width = labelFontWidth
    public static let height = labelFontHeight

    private static let glyphs: [UInt8] = Base64.decode(labelFontGlyphsBase64)
    private static let index: [UInt32: Int] = Dictionary(
        uniqueKeysWithValues: labelFontCodePoints.enumerated().map { ($0.element, $0.offset) })

    /// The rows of `character`'s glyph, nil when the font has none (a name in a script it does not
    /// cover, an emoji, a combining sequence); a space is a glyph of no pixels.
    public static func glyph(_ character: Character) -> ArraySlice<UInt8>? {
        let scalars = character.unicodeScalars
        guard scalars.count == 1, let scalar = scalars.first else { return nil }
        if scalar == " " { return ArraySlice(repeating: 0, count: height) }
        guard let found = index[scalar.value] else { return nil }
        return glyphs[found * height..<(found + 1) * height]
    }
}

extension PixelCanvas {
    /// Writes `character` into the cell of `cell` pixels whose top-left pixel is (x, y): the
    /// glyph scaled by whole steps to fit, centred, in `color` over a one-pixel `halo`. False,
    /// writing nothing, when the font has no glyph for it.
    @discardableResult
    public mutating func write(_ character: Character, x: Int, y: Int, cell: (width: Int, height: Int), _ color: RGB, halo: RGB)
        -> Bool
    {
        guard let rows = LabelFont.glyph(character) else { return false }
        let scale = max(1, min(cell.width / LabelFont.width, cell.height / LabelFont.height))
        let left = x + (cell.width - LabelFont.width * scale) / 2
        let top = y + (cell.height - LabelFont.height * scale) / 2
        func on(_ column: Int, _ row: Int) -> Bool {
            guard column >= 0, row >= 0, column < LabelFont.width, row < LabelFont.height else { return false }
            return rows[rows.startIndex + row] & (0x80 >> column) != 0
        }
        // The halo first: every pixel next to the glyph's that is not the glyph's.
        for row in -1...LabelFont.height {
            for column in -1...LabelFont.width where !on(column, row) {
                let near = (-1...1).contains { dy in (-1...1).contains { dx in on(column + dx, row + dy) } }
                if near { block(left + column * scale, top + row * scale, scale, halo, clip: (x, y, cell)) }
            }
        }
        for row in 0..<LabelFont.height {
            for column in 0..<LabelFont.width where on(column, row) {
                block(left + column * scale, top + row * scale, scale, color, clip: (x, y, cell))
            }
        }
        return true
    }

    /// A `size`×`size` square at (x, y), kept inside the cell `clip`.
    private mutating func block(_ x: Int, _ y: Int, _ size: Int, _ color: RGB, clip: (Int, Int, (width: Int, height: Int))) {
        let (top, bottom) = (max(y, clip.1), min(y + size, clip.1 + clip.2.height))
        let (left, right) = (max(x, clip.0), min(x + size, clip.0 + clip.2.width))
        guard top < bottom, left < right else { return }
        for py in top..<bottom {
            for px in left..<right { set(x: px, y: py, color) }
        }
    }
}
