import Foundation
import WorldMap

/// ANSI colours for `onthemap map` on a terminal: land green, pins red, clusters yellow.
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

    private static func sgr(_ style: CellStyle) -> String {
        switch style {
        case .water: ""
        case .land, .coast: ";32"
        case .pin(.selected), .cluster(.selected): ";1;7;31"
        case .pin(.own), .cluster(.own): ";1;36"
        case .pin(.match), .cluster(.match): ";1;35"
        case .pin: ";1;31"
        case .cluster: ";1;33"
        }
    }
}
