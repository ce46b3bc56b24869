/// What accessible mode keeps off the screen: Braille (U+2800–U+28FF), box drawing
/// (U+2500–U+257F) and block elements (U+2580–U+259F), which screen readers read as noise.
public enum AccessibleText {
    public static func isNoise(_ scalar: Unicode.Scalar) -> Bool {
        (0x2800...0x28FF).contains(scalar.value) || (0x2500...0x259F).contains(scalar.value)
    }

    /// The buffer with every such character replaced by its ASCII stand-in (`AsciiFallback`):
    /// the last guarantee, whatever a screen drew.
    public static func plain(_ buffer: Buffer) -> Buffer {
        var buffer = buffer
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let cell = buffer[x, y]
                guard cell.character.unicodeScalars.contains(where: isNoise) else { continue }
                var plain = cell
                // Box drawing becomes + - |; Braille dots and blocks (a QR code, the text
                // field's caret, where the terminal's own cursor stands instead) become blanks:
                // read aloud they are only noise.
                let box = cell.character.unicodeScalars.allSatisfy { (0x2500...0x257F).contains($0.value) }
                plain.character = box ? AsciiFallback.character(for: cell.character) : " "
                buffer[x, y] = plain
            }
        }
        return buffer
    }
}
