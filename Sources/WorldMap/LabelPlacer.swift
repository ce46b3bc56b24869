/// Writes names into a grid without overlaps: a name takes its cells only when they and one
/// cell either side are free (so names never touch each other or a pin), it stays inside the
/// grid, and pins' cells are taken from the start.
struct LabelPlacer {
    let width: Int
    let height: Int
    private(set) var taken: [Bool]
    let ascii: Bool

    init(width: Int, height: Int, pinCounts: [Int32], ascii: Bool) {
        self.width = width
        self.height = height
        self.ascii = ascii
        taken = pinCounts.map { $0 > 0 }
    }

    /// The characters to write for a name, one a cell: wide or unknown characters become `?`;
    /// in ASCII mode every non-ASCII character does.
    func cells(_ text: String) -> [Character] {
        text.map { character in
            let scalars = character.unicodeScalars
            guard let first = scalars.first, first.value >= 0x20 else { return "?" }
            if ascii { return scalars.count == 1 && first.isASCII ? character : "?" }
            let narrow = first.value < 0x1100 || (0x1E00..<0x2000).contains(first.value)
            return narrow ? character : "?"
        }
    }

    /// Whether `count` cells from `column` on `row` are free, with the neighbouring cell on each
    /// side free too (unless `gapLeft` / `gapRight` is false: a pin's own name touches its pin).
    func fits(column: Int, row: Int, count: Int, gapLeft: Bool = true, gapRight: Bool = true) -> Bool {
        guard row >= 0, row < height, column >= 0, count > 0, column + count <= width else { return false }
        let from = gapLeft ? max(0, column - 1) : column
        let to = gapRight ? min(width - 1, column + count) : column + count - 1
        let base = row * width
        for x in from...to where taken[base + x] { return false }
        return true
    }

    /// Writes the characters at the first candidate (start column, row) where they fit; false
    /// when none does.
    mutating func place(
        _ characters: [Character], kind: LabelKind, candidates: [(column: Int, row: Int)], gapLeft: Bool = true,
        gapRight: Bool = true, into grid: inout MapGrid
    ) -> Bool {
        for candidate in candidates
        where fits(
            column: candidate.column, row: candidate.row, count: characters.count, gapLeft: gapLeft,
            gapRight: gapRight)
        {
            let base = candidate.row * width + candidate.column
            for (offset, character) in characters.enumerated() {
                taken[base + offset] = true
                grid.cells[base + offset] = MapCell(character: character, style: .label(kind))
            }
            return true
        }
        return false
    }
}
