import SafeText

/// A grid of cells that screens draw into and backends blit; `text` gives it as plain lines for
/// snapshot tests.
public struct Buffer: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// The rectangles `fill` blanked, in order: boxes and bars drawn over whatever was below. A
    /// map's picture leaves them clear (`PictureScene.makeHoles`), so that a modal stays opaque
    /// however its text changes.
    public private(set) var filled: [Rect] = []

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public var area: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    public subscript(x: Int, y: Int) -> Cell {
        get { (x >= 0 && y >= 0 && x < width && y < height) ? cells[y * width + x] : .blank }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            let index = y * width + x
            // Never leave half of a wide character: overwriting either half blanks the other.
            if cells[index].isContinuation, !newValue.isContinuation, x > 0 {
                cells[index - 1] = Cell(" ", style: cells[index - 1].style)
            }
            if !newValue.isContinuation, x + 1 < width, cells[index + 1].isContinuation {
                cells[index + 1] = Cell(" ", style: cells[index + 1].style)
            }
            cells[index] = newValue
        }
    }

    /// Fills `rect` with blanks of `style`.
    public mutating func fill(_ rect: Rect, style: Style = .plain, character: Character = " ") {
        filled.append(rect)
        for row in max(0, rect.y)..<min(height, rect.maxY) {
            for column in max(0, rect.x)..<min(width, rect.maxX) {
                self[column, row] = Cell(character, style: style)
            }
        }
    }

    /// Changes the style of every cell in `rect`, keeping the characters (dimming, selection).
    public mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        for row in max(0, rect.y)..<min(height, rect.maxY) {
            for column in max(0, rect.x)..<min(width, rect.maxX) {
                change(&cells[row * width + column].style)
            }
        }
    }

    /// Writes `text` (already cleaned) from (x, y), at most `maxWidth` columns, cutting with `…`.
    /// Wide characters take two cells. Returns the columns used.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let limit = min(maxWidth ?? (width - x), width - x)
        guard limit > 0 else { return 0 }
        let fitted = SafeText.truncate(text, toWidth: limit)
        var column = x
        for character in fitted {
            let columns = character.unicodeScalars.reduce(0) { $0 + SafeText.width(of: $1) }
            if columns == 0 { continue }
            if column + columns > x + limit { break }
            if column >= 0 {
                self[column, y] = Cell(character, style: style)
                if columns == 2 { self[column + 1, y] = Cell(" ", style: style, isContinuation: true) }
            }
            column += columns
        }
        return column - x
    }

    /// Writes `text` centred in `rect`'s first row.
    public mutating func putCentered(_ text: String, in rect: Rect, style: Style = .plain) {
        let used = min(SafeText.width(text), rect.width)
        put(text, x: rect.x + (rect.width - used) / 2, y: rect.y, style: style, maxWidth: rect.width)
    }

    /// Draws a single-line box around `rect` with an optional title in the top border.
    public mutating func box(_ rect: Rect, style: Style = .plain, title: String? = nil, ascii: Bool = false) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let (h, v, tl, tr, bl, br): (Character, Character, Character, Character, Character, Character) =
            ascii ? ("-", "|", "+", "+", "+", "+") : ("─", "│", "┌", "┐", "└", "┘")
        for column in rect.x..<rect.maxX {
            self[column, rect.y] = Cell(h, style: style)
            self[column, rect.maxY - 1] = Cell(h, style: style)
        }
        for row in rect.y..<rect.maxY {
            self[rect.x, row] = Cell(v, style: style)
            self[rect.maxX - 1, row] = Cell(v, style: style)
        }
        self[rect.x, rect.y] = Cell(tl, style: style)
        self[rect.maxX - 1, rect.y] = Cell(tr, style: style)
        self[rect.x, rect.maxY - 1] = Cell(bl, style: style)
        self[rect.maxX - 1, rect.maxY - 1] = Cell(br, style: style)
        if let title, rect.width > 6 {
            put(" \(title) ", x: rect.x + 2, y: rect.y, style: style.with(bold: true), maxWidth: rect.width - 4)
        }
    }

    /// The grid as text, one line per row, trailing spaces removed.
    public var text: String {
        var lines: [String] = []
        for row in 0..<height {
            var line = ""
            for column in 0..<width where !self[column, row].isContinuation {
                line.append(self[column, row].character)
            }
            while line.last == " " { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The style layer of `text`: each cell's `Style.code`, trailing blanks removed.
    public var styleText: String {
        (0..<height).map { row in
            var line = String((0..<width).filter { !self[$0, row].isContinuation }.map { self[$0, row].style.code })
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}

extension Style {
    /// This style with `bold` changed.
    public func with(bold: Bool) -> Style {
        var copy = self
        copy.bold = bold
        return copy
    }
}
