import WorldMap

/// `graphics` in config.toml, `--graphics`, `ONTHEMAP_GRAPHICS`: how the app draws its map.
public enum GraphicsSetting: String, CaseIterable, Sendable {
    /// A picture where the terminal shows one (`GraphicsDetection`), Braille elsewhere.
    case auto
    case kitty, sixel, iterm
    /// Braille (or ASCII) always.
    case off
}

/// A way a terminal shows pictures inline.
public enum ImageProtocol: String, CaseIterable, Sendable {
    /// Kitty's graphics protocol: kitty, WezTerm, Ghostty, Konsole.
    case kitty
    /// DEC Sixel: foot, WezTerm, xterm -ti vt340, mlterm, Konsole, Windows Terminal 1.22+.
    case sixel
    /// iTerm2's inline images: iTerm2, WezTerm, VS Code.
    case iterm

    /// The library the protocol needs here, loaded on first use: libpng for the PNG inside
    /// Kitty's and iTerm2's sequences (Sixel needs none). nil when it can be loaded.
    public var missingLibrary: String? {
        switch self {
        case .sixel: nil
        case .kitty, .iterm: PNG.isAvailable ? nil : "libpng16-16"
        }
    }

    /// `image` as this protocol's sequence over `columns × rows` cells of `cell` pixels, drawn
    /// from the cursor. `id` names a Kitty image (to replace or delete it); `underText` puts a
    /// Kitty image below the cells' text and leaves the cursor where it was (the app's map,
    /// whose transparent cells show the text there).
    public func encode(
        _ image: IndexedImage, columns: Int, rows: Int, cell: (width: Int, height: Int), id: Int = 1, underText: Bool = false
    ) throws -> String {
        switch self {
        case .sixel: String(decoding: Sixel.encode(image), as: UTF8.self)
        case .kitty:
            TerminalImage.kitty(png: try PNG.encode(image), columns: columns, rows: rows, id: id, underText: underText)
        case .iterm: TerminalImage.iterm(png: try PNG.encode(image), columns: columns, rows: rows)
        }
    }
}
