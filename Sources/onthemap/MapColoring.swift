import Foundation
import TerminalUI
import WorldMap

/// ANSI colours for `onthemap map` on a terminal, from the app's `MapPalette`.
enum MapColoring {
    /// When to colour: `auto` colours a terminal unless NO_COLOR is set or TERM is dumb.
    enum Choice: String, CaseIterable, Sendable {
        case auto, always, never

        /// Whether to colour stdout.
        var enabled: Bool { enabled(on: STDOUT_FILENO) }

        /// Whether to colour what goes to `descriptor`.
        func enabled(on descriptor: Int32) -> Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .auto:
                let environment = ProcessInfo.processInfo.environment
                if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
                if environment["TERM"] == "dumb" { return false }
                return isatty(descriptor) != 0
            }
        }
    }

    /// The theme to colour with: `name` (the settings' theme) at the depth TERM and COLORTERM
    /// announce — 256 colours for a `…256color` terminal or a truecolor one, 16 for a
    /// `…16color` one, else 8 — and mono (attributes only) under NO_COLOR, as in the app.
    static func theme(_ name: Theme.Name, environment: [String: String]) -> Theme {
        let term = environment["TERM"] ?? ""
        let colorTerm = environment["COLORTERM"] ?? ""
        let colors =
            term.hasSuffix("256color") || colorTerm == "truecolor" || colorTerm == "24bit"
            ? 256 : term.hasSuffix("16color") ? 16 : 8
        return Theme.resolve(name, colors: colors, environment: environment)
    }

    /// The grid's rows with SGR sequences where the style changes, reset at each line's end.
    static func lines(_ grid: MapGrid, theme: Theme) -> [String] {
        (0..<grid.height).map { row in
            var line = ""
            var current = ""
            for column in 0..<grid.width {
                guard let cell = grid[column, row] else { continue }
                let code = sgr(theme.resolve(MapPalette.style(for: cell.style)))
                if code != current {
                    line += "\u{1B}[0" + code + "m"
                    current = code
                }
                line.append(cell.character)
            }
            return line + "\u{1B}[0m"
        }
    }

    /// The SGR parameters (after a reset) of a themed style: 30–37/90–97 for the first 16
    /// palette entries, 38;5;N beyond (backgrounds alike).
    static func sgr(_ style: ThemedStyle) -> String {
        var codes: [String] = []
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        if let foreground = style.foreground { codes.append(color(foreground, base: 30)) }
        if let background = style.background { codes.append(color(background, base: 40)) }
        return codes.map { ";" + $0 }.joined()
    }

    private static func color(_ index: Int, base: Int) -> String {
        switch index {
        case 0..<8: return "\(base + index)"
        case 8..<16: return "\(base + 60 + index - 8)"
        default: return "\(base + 8);5;\(index)"
        }
    }
}
