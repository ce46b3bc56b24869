/// One of the eight basic terminal colours, or the terminal's own default.
public enum TerminalColor: Int, Sendable, Hashable, CaseIterable {
    case black = 0, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell looks: colours and attributes. Monochrome terminals use only the attributes.
public struct Style: Sendable, Hashable {
    public var foreground: TerminalColor?
    public var background: TerminalColor?
    public var bold: Bool
    public var reverse: Bool
    public var dim: Bool
    public var underline: Bool

    public init(
        foreground: TerminalColor? = nil, background: TerminalColor? = nil, bold: Bool = false, reverse: Bool = false,
        dim: Bool = false, underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
    }

    public static let plain = Style()
    public static let bold = Style(bold: true)
    public static let dim = Style(dim: true)
    public static let selected = Style(reverse: true)
    public static let accent = Style(foreground: .cyan, bold: true)
    public static let danger = Style(foreground: .red, bold: true)
    /// Every other row: the theme's stripe with its own ink, so that the row reads even where the
    /// theme does not suit the background (black on black was a dark theme's row on xterm's white).
    public static let zebra = Style(foreground: .white, background: .black)
    public static let focused = Style(underline: true)
}

extension Style {
    /// One character standing for the style in snapshot tests: `#` reverse, a colour's letter
    /// (`r g y b m c w k`, capital when bold), `*` bold, `.` dim, `_` underlined, `=` only a
    /// background, blank for plain.
    public var code: Character {
        if reverse { return "#" }
        if let foreground {
            let letter = Character(["k", "r", "g", "y", "b", "m", "c", "w"][foreground.rawValue])
            return bold ? Character(letter.uppercased()) : letter
        }
        if bold { return "*" }
        if dim { return "." }
        if underline { return "_" }
        return background == nil ? " " : "="
    }
}
