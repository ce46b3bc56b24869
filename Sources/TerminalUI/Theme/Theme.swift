/// The look of the screens: screens draw with `Style`'s eight colour names (the dark theme's
/// words), and a theme turns each into the colour a terminal shows — for a dark background
/// (`dark`, the default), a light one (`light`: no white or yellow text, darker shades), or none
/// (`mono`: attributes only, as under NO_COLOR) — at the depth the terminal has (256, 16 or 8
/// colours). The screens never see the result, so snapshot tests and the footer stay theme-free.
public struct Theme: Sendable, Hashable {
    /// The themes a user can choose (`theme = "light"`, `--theme light`).
    public enum Name: String, Sendable, Hashable, CaseIterable {
        case dark, light, mono
    }

    /// How many colours the terminal shows.
    public enum Depth: Int, Sendable, Hashable, CaseIterable {
        case colors8 = 8, colors16 = 16, colors256 = 256

        /// The depth of a terminal reporting `colors` (curses' COLORS); nil below 8 (no colour).
        public init?(colors: Int) {
            if colors >= 256 {
                self = .colors256
            } else if colors >= 16 {
                self = .colors16
            } else if colors >= 8 {
                self = .colors8
            } else {
                return nil
            }
        }
    }

    public let name: Name
    /// nil: no colour at all (mono, NO_COLOR, a monochrome terminal).
    public let depth: Depth?

    public init(_ name: Name, depth: Depth?) {
        self.name = name
        self.depth = name == .mono ? nil : depth
    }

    /// The theme to draw with: `name` at the terminal's depth, except that NO_COLOR (set and not
    /// empty, https://no-color.org) or a terminal without colours makes it mono whatever was chosen.
    public static func resolve(_ name: Name, colors: Int, environment: [String: String]) -> Theme {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        return noColor ? Theme(.mono, depth: nil) : Theme(name, depth: Depth(colors: colors))
    }

    /// The palette index (0–255) for `color` as a foreground, or nil for the terminal's default.
    public func foreground(_ color: TerminalColor?) -> Int? {
        guard let color, let depth else { return nil }
        return ThemePalette.index(of: color, background: false, theme: name, depth: depth)
    }

    /// The palette index for `color` as a background, or nil for the terminal's default.
    public func background(_ color: TerminalColor?) -> Int? {
        guard let color, let depth else { return nil }
        return ThemePalette.index(of: color, background: true, theme: name, depth: depth)
    }

    /// `style` as this theme shows it.
    public func resolve(_ style: Style) -> ThemedStyle {
        ThemedStyle(
            foreground: foreground(style.foreground), background: background(style.background), bold: style.bold,
            reverse: style.reverse, dim: style.dim, underline: style.underline)
    }
}

/// A style as a terminal is asked to show it: palette indices (nil: the terminal's default) and
/// attributes.
public struct ThemedStyle: Sendable, Hashable {
    public var foreground: Int?
    public var background: Int?
    public var bold: Bool
    public var reverse: Bool
    public var dim: Bool
    public var underline: Bool

    /// SGR-like words for snapshots and docs: `fg=203 bg=236 bold`, or `plain`.
    public var words: String {
        var parts: [String] = []
        if let foreground { parts.append("fg=\(foreground)") }
        if let background { parts.append("bg=\(background)") }
        if bold { parts.append("bold") }
        if dim { parts.append("dim") }
        if underline { parts.append("underline") }
        if reverse { parts.append("reverse") }
        return parts.isEmpty ? "plain" : parts.joined(separator: " ")
    }
}
