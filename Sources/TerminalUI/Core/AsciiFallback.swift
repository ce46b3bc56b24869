/// ASCII stand-ins for the characters the screens use, for terminals whose locale is not UTF-8
/// (or `--ascii`): Braille map dots by density, box drawing, ellipsis, bullets.
public enum AsciiFallback {
    public static func character(for character: Character) -> Character {
        guard let scalar = character.unicodeScalars.first, !character.isASCII else { return character }
        let value = scalar.value
        if (0x2800...0x28FF).contains(value) {
            let dots = (value - 0x2800).nonzeroBitCount
            return dots == 0 ? " " : dots <= 2 ? "." : dots <= 5 ? ":" : "#"
        }
        switch character {
        case "─", "━", "═": return "-"
        case "│", "┃", "║": return "|"
        case "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼": return "+"
        case "…": return "."
        case "•", "●", "◆", "◉": return "*"
        case "∙", "·": return "."
        case "▶", "›": return ">"
        case "◀", "‹": return "<"
        case "▲": return "^"
        case "▼": return "v"
        case "█", "▓", "▒", "░": return "#"
        default: return "?"
        }
    }
}
