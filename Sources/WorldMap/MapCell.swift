/// What a cell shows, for a terminal layer to pick colours and for tests to print.
public enum CellStyle: Sendable, Hashable {
    case water
    case land
    /// A cell with both land and water in it.
    case coast
    /// A country border line.
    case border
    /// A first-level border (state, province), drawn dashed.
    case adminBorder
    /// The outline of one country picked out (`MapRenderer.outlinedCountry`).
    case outline
    /// A name written on the map.
    case label(LabelKind)
    case pin(PinStyle)
    /// Several pins in one cell; the style is that of the most important pin in it.
    case cluster(PinStyle)

    /// One character standing for the style in style snapshots.
    public var code: Character {
        switch self {
        case .water: " "
        case .land: "L"
        case .coast: "c"
        case .border: "B"
        case .adminBorder: "A"
        case .outline: "H"
        case .label(.country): "C"
        case .label(.city): "T"
        case .label(.pin): "P"
        case .pin(let style): ["n", "m", "o", "s"][style.rawValue]
        case .cluster(let style): ["N", "M", "O", "S"][style.rawValue]
        }
    }
}

/// What a name on the map names.
public enum LabelKind: Sendable, Hashable {
    case country
    case city
    /// The selected pin's name (a student's), beside the pin.
    case pin
}

/// One character cell of the rendered map.
public struct MapCell: Sendable, Hashable {
    public var character: Character
    public var style: CellStyle

    public init(character: Character, style: CellStyle) {
        self.character = character
        self.style = style
    }
}
