/// What a cell shows, for a terminal layer to pick colours and for tests to print.
public enum CellStyle: Sendable, Hashable {
    case water
    case land
    /// A cell with both land and water in it.
    case coast
    case pin(PinStyle)
    /// Several pins in one cell; the style is that of the most important pin in it.
    case cluster(PinStyle)

    /// One character standing for the style in style snapshots.
    public var code: Character {
        switch self {
        case .water: " "
        case .land: "L"
        case .coast: "c"
        case .pin(let style): ["n", "m", "o", "s"][style.rawValue]
        case .cluster(let style): ["N", "M", "O", "S"][style.rawValue]
        }
    }
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
