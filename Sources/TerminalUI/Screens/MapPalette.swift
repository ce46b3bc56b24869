import WorldMap

/// The map's colours, for the app's Map pane and posting preview and for `onthemap map`: land
/// green, pins red, filter matches magenta, your own pin yellow, the selection yellow in reverse.
/// A cluster takes the colour of the most important pin in it.
public enum MapPalette {
    public static func style(for style: CellStyle) -> Style {
        switch style {
        case .water: return .plain
        case .land: return Style(foreground: .green)
        case .coast: return Style(foreground: .green, dim: true)
        case .pin(let pin), .cluster(let pin):
            switch pin {
            case .normal: return Style(foreground: .red, bold: true)
            case .match: return Style(foreground: .magenta, bold: true)
            case .own: return Style(foreground: .yellow, bold: true)
            case .selected: return Style(foreground: .yellow, bold: true, reverse: true)
            }
        }
    }
}
