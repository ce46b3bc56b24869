import WorldMap

/// The map's colours, for the app's Map pane and posting preview and for `onthemap map`: land a
/// dim green stipple with a green coast, country borders white, state borders dim, names
/// cyan (countries bold), a picked-out country's outline yellow, pins red, filter matches magenta, your own pin yellow, the selection
/// yellow with its name beside it. A cluster takes the style of the most important pin in it.
///
/// Without colour (NO_COLOR, a monochrome terminal) the attributes alone keep pins apart: a pin
/// is bold, a match bold and underlined, your own pin reversed, the selection reversed, bold and
/// underlined; names are plain letters one cell away from any pin.
public enum MapPalette {
    public static func style(for style: CellStyle) -> Style {
        switch style {
        case .water: return .plain
        case .land: return Style(foreground: .green, dim: true)
        case .coast: return Style(foreground: .green)
        case .border: return Style(foreground: .white)
        case .adminBorder: return Style(foreground: .white, dim: true)
        case .outline: return Style(foreground: .yellow)
        case .label(.country): return Style(foreground: .cyan, bold: true)
        case .label(.city): return Style(foreground: .cyan)
        case .label(.pin): return Style(foreground: .yellow, bold: true)
        case .pin(let pin), .cluster(let pin):
            switch pin {
            case .normal: return Style(foreground: .red, bold: true)
            case .match: return Style(foreground: .magenta, bold: true, underline: true)
            case .own: return Style(foreground: .yellow, reverse: true)
            case .selected: return Style(foreground: .yellow, bold: true, reverse: true, underline: true)
            }
        }
    }
}
