/// The most cells a picture may cover: a terminal's largest Sixel picture (XTSMGRAPHICS; xterm's
/// default is 1000×1000 pixels, and it draws nothing of a larger one) over its cell size.
public struct PictureLimit: Sendable, Hashable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The limit of `pixels` with cells of `cell` pixels.
    public init(pixels: (width: Int, height: Int), cell: (width: Int, height: Int)) {
        self.init(columns: pixels.width / max(1, cell.width), rows: pixels.height / max(1, cell.height))
    }

    /// Where a picture for `area` goes: `area` when it fits, else the largest rectangle within the
    /// limit centred in it; nil when that would be less than half of `area`'s width or height —
    /// no picture is useful then, and the map is drawn in cells.
    public func fit(_ area: Rect) -> Rect? {
        let width = min(area.width, columns)
        let height = min(area.height, rows)
        guard width * 2 >= area.width, height * 2 >= area.height, width > 0, height > 0 else { return nil }
        return Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
    }
}
