/// The land's light style: only the dots along the coast (land dots with water beside them)
/// are kept whole; inside, land is a sparse stipple, so that pins and names stand out even
/// without colour.
enum LandOutline {
    /// The stipple kept inside land: dot 2 of every cell (`⠂`), one dot in eight.
    static let stipple: UInt8 = 0x02

    /// Per cell of the rows `rows`, the land dots that touch water (up, down, left or right),
    /// into `out` (which holds every row; `MapRenderer.layers` asks for each half of the rows).
    /// The view's edges count as land, so a coast is never drawn along them.
    static func coast(
        of m: UnsafeBufferPointer<UInt8>, width: Int, height: Int, rows: Range<Int>, into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        // A cell's two dot columns as 4-bit nibbles (bit r: row r), so that a dot's four
        // neighbours are shifts of its own column, the other column, and the next cells'.
        @inline(__always) func left(_ mask: UInt8) -> UInt8 { (mask & 0x07) | (mask >> 3 & 0x08) }
        @inline(__always) func right(_ mask: UInt8) -> UInt8 { (mask >> 3 & 0x07) | (mask >> 4 & 0x08) }
        @inline(__always) func braille(left: UInt8, right: UInt8) -> UInt8 {
            (left & 0x07) | (left & 0x08) << 3 | (right & 0x07) << 3 | (right & 0x08) << 4
        }
                for row in rows {
                    for column in 0..<width {
                        let index = row * width + column
                        let mask = m[index]
                        guard mask != 0 else { continue }
                        // Outside the view counts as land (0xFF).
                        let above = row > 0 ? m[index - width] : 0xFF
                        let below = row < height - 1 ? m[index + width] : 0xFF
                        let before = column > 0 ? m[index - 1] : 0xFF
                        let after = column < width - 1 ? m[index + 1] : 0xFF
                        if mask & above & below & before & after == 0xFF { continue }
                        let (l, r) = (left(mask), right(mask))
                        // Land above row r (row 3 of the cell above for row 0), and below it.
                        let upL = (l << 1 | left(above) >> 3) & 0x0F
                        let upR = (r << 1 | right(above) >> 3) & 0x0F
                        let downL = l >> 1 | (left(below) & 1) << 3
                        let downR = r >> 1 | (right(below) & 1) << 3
                        let coastL = l & ~(upL & downL & right(before) & r) & 0x0F
                        let coastR = r & ~(upR & downR & l & left(after)) & 0x0F
                        out[index] = braille(left: coastL, right: coastR)
                    }
                }
    }
}
