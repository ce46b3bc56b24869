/// The themes' colour tables: for each of `Style`'s colour names, the palette index a theme uses
/// at each depth. At 8 colours the dark theme is the identity (what the app always drew); 16
/// colours add the bright half (8–15); 256 colours pick softer shades from the 6×6×6 cube and the
/// grey ramp. The light theme is for a light terminal background: white text becomes black or
/// dark grey, yellow a dark gold, cyan a blue, and the zebra stripe's black a light grey.
enum ThemePalette {
    /// One colour name's index at 8, 16 and 256 colours.
    struct Entry {
        let c8: Int, c16: Int, c256: Int

        func index(_ depth: Theme.Depth) -> Int {
            switch depth {
            case .colors8: c8
            case .colors16: c16
            case .colors256: c256
            }
        }
    }

    // Indexed by TerminalColor.rawValue: black, red, green, yellow, blue, magenta, cyan, white.
    static let darkForeground: [Entry] = [
        Entry(c8: 0, c16: 8, c256: 247), Entry(c8: 1, c16: 9, c256: 203), Entry(c8: 2, c16: 2, c256: 71),
        Entry(c8: 3, c16: 11, c256: 221), Entry(c8: 4, c16: 12, c256: 75), Entry(c8: 5, c16: 13, c256: 176),
        Entry(c8: 6, c16: 14, c256: 81), Entry(c8: 7, c16: 15, c256: 252),
    ]
    static let darkBackground: [Entry] = [
        Entry(c8: 0, c16: 0, c256: 235), Entry(c8: 1, c16: 1, c256: 124), Entry(c8: 2, c16: 2, c256: 22),
        Entry(c8: 3, c16: 3, c256: 178), Entry(c8: 4, c16: 4, c256: 24), Entry(c8: 5, c16: 5, c256: 90),
        Entry(c8: 6, c16: 6, c256: 30), Entry(c8: 7, c16: 7, c256: 250),
    ]
    static let lightForeground: [Entry] = [
        Entry(c8: 0, c16: 8, c256: 240), Entry(c8: 1, c16: 1, c256: 124), Entry(c8: 2, c16: 2, c256: 22),
        Entry(c8: 3, c16: 3, c256: 58), Entry(c8: 4, c16: 4, c256: 25), Entry(c8: 5, c16: 5, c256: 127),
        Entry(c8: 4, c16: 4, c256: 24), Entry(c8: 0, c16: 0, c256: 238),
    ]
    static let lightBackground: [Entry] = [
        Entry(c8: 7, c16: 7, c256: 254), Entry(c8: 1, c16: 9, c256: 217), Entry(c8: 2, c16: 10, c256: 151),
        Entry(c8: 3, c16: 11, c256: 229), Entry(c8: 4, c16: 12, c256: 153), Entry(c8: 5, c16: 13, c256: 225),
        Entry(c8: 6, c16: 14, c256: 159), Entry(c8: 7, c16: 15, c256: 255),
    ]

    static func index(of color: TerminalColor, background: Bool, theme: Theme.Name, depth: Theme.Depth) -> Int? {
        let table: [Entry]
        switch theme {
        case .mono: return nil
        case .dark: table = background ? darkBackground : darkForeground
        case .light: table = background ? lightBackground : lightForeground
        }
        return table[color.rawValue].index(depth)
    }
}
