/// Keys by name, as the footer, the help overlay and the documentation write them (and as a
/// configuration file may name them): `q`, `Enter`, `Ctrl-S`, `S-Tab`, `↑`, `PgDn`, `Space`.
extension Key {
    static let named: [(Key, String)] = [
        (.enter, "Enter"), (.escape, "Esc"), (.tab, "Tab"), (.backTab, "S-Tab"), (.backspace, "Backspace"),
        (.delete, "Del"), (.up, "↑"), (.down, "↓"), (.left, "←"), (.right, "→"), (.pageUp, "PgUp"),
        (.pageDown, "PgDn"), (.home, "Home"), (.end, "End"), (.character(" "), "Space"),
    ]

    /// The key's name.
    public var name: String {
        if let entry = Self.named.first(where: { $0.0 == self }) { return entry.1 }
        switch self {
        case .character(let character): return String(character)
        case .control(let letter): return "Ctrl-" + letter.uppercased()
        default: return "?"
        }
    }

    /// The key a name stands for (the inverse of `name`), or nil.
    public init?(name: String) {
        if let entry = Self.named.first(where: { $0.1 == name }) {
            self = entry.0
        } else if name.count == 1, let character = name.first {
            self = .character(character)
        } else if name.hasPrefix("Ctrl-"), name.count == 6, let letter = name.last, letter.isLetter {
            self = .control(Character(letter.lowercased()))
        } else {
            return nil
        }
    }
}
