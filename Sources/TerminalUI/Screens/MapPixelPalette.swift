import WorldMap

/// The map's colours for pixels (`PixelMapRenderer`): `MapPalette`'s styles as a theme shows them
/// on a 256-colour terminal, turned into RGB with xterm's palette, so that a picture of the map and
/// the cell map look alike. The sea is the theme's background; `dim` is half-way to it. Mono has
/// no colours: grey levels, with your own and the selected pin in their own shades.
extension MapPalette {
    public static func pixels(_ name: Theme.Name) -> PixelPalette {
        guard name != .mono else { return mono }
        let theme = Theme(name, depth: .colors256)
        let sea = name == .light ? RGB(250, 250, 246) : RGB(14, 18, 26)
        func color(_ style: CellStyle) -> RGB {
            let themed = theme.resolve(MapPalette.style(for: style))
            let base = themed.foreground.map(xterm) ?? (name == .light ? RGB(0, 0, 0) : RGB(230, 230, 230))
            return themed.dim ? blend(base, sea, 0.55) : base
        }
        return PixelPalette(
            sea: sea, land: blend(color(.coast), sea, 0.72), coast: color(.coast), border: color(.border),
            admin1: color(.adminBorder), outline: color(.outline),
            // The cell map tells your own pin from the selected one by reverse video; a picture
            // by colour: yours in the theme's blue.
            pins: PinStyle.allCases.map { $0 == .own ? (theme.foreground(.blue).map(xterm) ?? RGB(0, 0, 255)) : color(.pin($0)) },
            pinEdge: name == .light ? RGB(255, 255, 255) : RGB(0, 0, 0))
    }

    /// The colour a name in `style` is written in on a picture in `theme` (black in mono).
    public static func labelColor(_ style: Style, theme: Theme.Name) -> RGB? {
        guard theme != .mono else { return RGB(0, 0, 0) }
        return Theme(theme, depth: .colors256).resolve(style).foreground.map(xterm)
    }

    static let mono = PixelPalette(
        sea: RGB(255, 255, 255), land: RGB(222, 222, 222), coast: RGB(90, 90, 90), border: RGB(140, 140, 140),
        admin1: RGB(185, 185, 185), outline: RGB(0, 0, 0),
        pins: [RGB(60, 60, 60), RGB(110, 110, 110), RGB(200, 200, 200), RGB(0, 0, 0)], pinEdge: RGB(0, 0, 0))

    /// xterm's colour for a 256-colour palette index.
    static func xterm(_ index: Int) -> RGB {
        let basic: [RGB] = [
            RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0), RGB(0, 0, 238), RGB(205, 0, 205),
            RGB(0, 205, 205), RGB(229, 229, 229), RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0), RGB(255, 255, 0),
            RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
        ]
        switch index {
        case 0..<16: return basic[index]
        case 16..<232:
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let cube = index - 16
            return RGB(levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
        default:
            let grey = UInt8(8 + 10 * (min(max(index, 232), 255) - 232))
            return RGB(grey, grey, grey)
        }
    }

    static func blend(_ color: RGB, _ toward: RGB, _ amount: Double) -> RGB {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) * (1 - amount) + Double(b) * amount).rounded()) }
        return RGB(mix(color.red, toward.red), mix(color.green, toward.green), mix(color.blue, toward.blue))
    }
}
