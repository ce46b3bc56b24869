/// How a pin is drawn; later cases win when several pins share a cell.
public enum PinStyle: Int, Sendable, Hashable, Comparable, CaseIterable {
    case normal
    case match
    case own
    case selected

    public static func < (lhs: PinStyle, rhs: PinStyle) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The character of a lone pin of this style.
    public var character: Character {
        switch self {
        case .normal: "o"
        case .match: "*"
        case .own: "@"
        case .selected: "X"
        }
    }
}

/// A marker on the map. WorldMap knows nothing of the app's models: callers map them to pins.
public struct MapPin: Sendable, Hashable {
    public var id: String
    public var latitude: Double
    public var longitude: Double
    public var style: PinStyle
    /// A name written beside the pin when it is selected (the caller cleans it for the terminal).
    public var label: String?

    public init(id: String, latitude: Double, longitude: Double, style: PinStyle = .normal, label: String? = nil) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.style = style
        self.label = label
    }

    /// Whether the coordinate can be drawn at all (finite, latitude within ±90).
    public var isDrawable: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90
    }
}
