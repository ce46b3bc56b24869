import Foundation
import TerminalUI
import WorldMap

/// ANSI colours for `onthemap map` on a terminal, from the app's `MapPalette`.
enum MapColoring {
    /// When to colour: `auto` colours a terminal unless NO_COLOR is set or TERM is dumb.
    enum Choice: String, CaseIterable, Sendable {
        case auto, always, never

        var enabled: Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .auto:
                let environment = ProcessInfo.processInfo.environment
                if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
                if environment["TERM"] == "dumb" { return false }
                return isatty(STDOUT_FILENO) != 0
            }
        }
    }

    /// The grid's rows with SGR sequences where the style changes, reset at each line's end.
    static func lines(_ grid: MapGrid) -> [String] {
        (0..<grid.height).map { row in
            var line = ""
            var current = ""
            for column in 0..<grid.width {
                guard let cell = grid[column, row] else { continue }
                let code = sgr(cell.style)
                if code != current {
                    line += "\u{1B}[0" + code + "m"
                    current = code
                }
                line.append(cell.character)
            }
            return line + "\u{1B}[0m"
        }
    }

    /// The SGR parameters (after a reset) of the palette's style for a cell.
    private static func sgr(_ cellStyle: CellStyle) -> String {
        let style = MapPalette.style(for: cellStyle)
        var codes: [Int] = []
        if style.bold { codes.append(1) }
        if style.dim { codes.append(2) }
        if style.underline { codes.append(4) }
        if style.reverse { codes.append(7) }
        if let foreground = style.foreground { codes.append(30 + foreground.rawValue) }
        if let background = style.background { codes.append(40 + background.rawValue) }
        return codes.map { ";\($0)" }.joined()
    }
}
