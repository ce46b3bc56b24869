import QRCode

/// Draws a `QRMatrix` as cells: two module rows per line with half blocks (`▀ ▄ █`), or `#`s
/// (two columns, one line per module row) when the terminal has no block characters. Dark
/// modules are black on white, as scanners expect; with colours off the terminal's own colours
/// show it inverted, which most phone scanners read as well.
public enum QRCodeView {
    /// Columns and lines the drawing takes (quiet zone included).
    public static func size(of matrix: QRMatrix, ascii: Bool) -> (width: Int, height: Int) {
        let side = matrix.size + 2 * QRMatrix.quietZone
        return ascii ? (2 * side, side) : (side, (side + 1) / 2)
    }

    /// Draws `matrix` with its top-left corner at (`x`, `y`).
    public static func draw(_ matrix: QRMatrix, in buffer: inout Buffer, x: Int, y: Int, ascii: Bool) {
        let style = Style(foreground: .black, background: .white)
        for (index, line) in matrix.lines(ascii: ascii).enumerated() {
            _ = buffer.put(line, x: x, y: y + index, style: style)
        }
    }
}
