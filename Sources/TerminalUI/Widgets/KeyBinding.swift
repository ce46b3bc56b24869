/// One row of the key table: the keys, what they do, and whether the footer shows it.
public struct KeyBinding: Sendable, Hashable {
    public var keys: String
    public var action: String
    public var inFooter: Bool
    /// The footer's short form, e.g. `/ filter`.
    public var short: String

    public init(_ keys: String, _ action: String, footer: String? = nil) {
        self.keys = keys
        self.action = action
        self.inFooter = footer != nil
        self.short = footer ?? keys
    }
}

/// The key tables: the footer shows the marked rows, the help overlay shows them all.
public enum KeyTable {
    public static func main(_ pane: Int) -> [KeyBinding] {
        var table = [
            KeyBinding("Tab S-Tab 1 2 3", "switch pane Map / Table / Cards", footer: "Tab pane"),
            KeyBinding("j k ↑ ↓", "select previous / next"),
            KeyBinding("PgUp PgDn g G", "page up / down, first / last"),
            KeyBinding("Enter", "open the link (Map: show the pin)", footer: "Enter open"),
        ]
        if pane == 1 { table.append(KeyBinding("m", "show the row on the map")) }
        if pane == 0 {
            table += [
                KeyBinding("← → ↑ ↓ h j k l", "pan the map"), KeyBinding("+ - (a z)", "zoom in / out"),
                KeyBinding("0", "whole world"), KeyBinding("n N [ ]", "next / previous pin"),
            ]
        }
        table += [
            KeyBinding("/", "filter all panes (Esc clears)", footer: "/ filter"),
            KeyBinding("n N", "next / previous match"),
            KeyBinding("p", "post your location", footer: "p post"),
            KeyBinding("r", "refresh", footer: "r refresh"),
            KeyBinding("L", "log out"),
            KeyBinding("?", "this help", footer: "? help"),
            KeyBinding("q", "quit", footer: "q quit"),
        ]
        return table
    }

    public static let login = [
        KeyBinding("Tab ↑ ↓", "next / previous field", footer: "Tab next field"),
        KeyBinding("Enter", "log in (or press the focused button)", footer: "Enter log in"),
        KeyBinding("Ctrl-S", "sign up / back to log in", footer: "Ctrl-S sign up"),
        KeyBinding("Ctrl-U", "clear the field"),
        KeyBinding("Ctrl-C Esc", "quit", footer: "Esc quit"),
    ]

    public static let posting = [
        KeyBinding("Tab", "next field", footer: "Tab next"),
        KeyBinding("Enter", "find / finish", footer: "Enter find/finish"),
        KeyBinding("← →", "choose another match", footer: "← → other match"),
        KeyBinding("Esc", "cancel", footer: "Esc cancel"),
    ]

    /// The footer text of a table: `Tab pane  / filter  ? help`.
    public static func footer(_ table: [KeyBinding]) -> String {
        table.filter(\.inFooter).map(\.short).joined(separator: "  ")
    }
}
