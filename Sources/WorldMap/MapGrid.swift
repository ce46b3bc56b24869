/// A rectangle of map cells, row by row.
public struct MapGrid: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public var cells: [MapCell]

    public init(width: Int, height: Int, fill: MapCell = MapCell(character: " ", style: .water)) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: fill, count: self.width * self.height)
    }

    /// The cell at a column and row, or nil outside the grid.
    public subscript(column: Int, row: Int) -> MapCell? {
        guard column >= 0, column < width, row >= 0, row < height else { return nil }
        return cells[row * width + column]
    }

    /// The characters, one line a row.
    public var lines: [String] {
        (0..<height).map { row in String(cells[(row * width)..<((row + 1) * width)].map(\.character)) }
    }

    /// The style codes (see `CellStyle.code`), one line a row.
    public var styleLines: [String] {
        (0..<height).map { row in String(cells[(row * width)..<((row + 1) * width)].map(\.style.code)) }
    }

    /// The characters joined with newlines.
    public var text: String { lines.joined(separator: "\n") }
}
