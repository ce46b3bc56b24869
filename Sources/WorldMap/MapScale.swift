/// What a view's status line says for orientation: a scale bar of a round distance and the
/// coordinates of the view's centre.
public struct MapScale: Sendable, Hashable {
    /// Columns the bar spans (its ends included).
    public let columns: Int
    public let kilometres: Double
    public let miles: Double
    public let centerLatitude: Double
    public let centerLongitude: Double

    /// The scale at the view's centre, for a bar of at most `maximumColumns` columns.
    public init(_ viewport: Viewport, maximumColumns: Int = 12) {
        let cosine = max(0.01, MapMath.cosine(degrees: viewport.centerLatitude))
        let perColumn = viewport.degreesPerColumn * 111.32 * cosine
        var best = 1.0
        var power = 0.001
        search: while power < 1e6 {
            for step in [1.0, 2.0, 5.0] {
                let candidate = step * power
                if candidate / perColumn > Double(max(2, maximumColumns)) { break search }
                best = candidate
            }
            power *= 10
        }
        kilometres = best
        miles = best / 1.609344
        columns = max(2, Int((best / perColumn).rounded()))
        centerLatitude = viewport.centerLatitude
        centerLongitude = viewport.centerLongitude
    }

    /// `├────┤ 500 km (311 mi)`, or `|----| 500 km (311 mi)` in ASCII.
    public func bar(ascii: Bool) -> String {
        let inner = String(repeating: ascii ? "-" : "─", count: max(0, columns - 2))
        let ends = ascii ? ("|", "|") : ("├", "┤")
        return ends.0 + inner + ends.1 + " " + Self.distance(kilometres, "km") + " (" + Self.distance(miles, "mi") + ")"
    }

    /// The centre as `48.86°N 2.35°E` (`48.86N 2.35E` in ASCII).
    public func center(ascii: Bool) -> String {
        let degree = ascii ? "" : "°"
        let latitude = MapMath.fixed(abs(centerLatitude), digits: 2) + degree + (centerLatitude < 0 ? "S" : "N")
        let longitude = MapMath.fixed(abs(centerLongitude), digits: 2) + degree + (centerLongitude < 0 ? "W" : "E")
        return latitude + " " + longitude
    }

    static func distance(_ value: Double, _ unit: String) -> String {
        if value >= 10 { return "\(Int(value.rounded())) \(unit)" }
        if value >= 1 {
            let text = MapMath.fixed(value, digits: 1)
            return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + " \(unit)"
        }
        return MapMath.fixed(value, digits: 2) + " \(unit)"
    }
}
