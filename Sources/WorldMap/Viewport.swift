/// The visible part of an equirectangular world map: a centre, a zoom and a size in cells.
///
/// A terminal cell is taken to be twice as tall as it is wide. Latitude is stretched by
/// `latitudeStretch` (1 to 1.5, chosen from the size so a world view fills the screen; about
/// Mercator's stretch at 45°), so a row spans `2 / latitudeStretch` times the degrees of a
/// column. Zoom 1 shows the whole world (84°N to 60°S at least); each doubling halves the
/// degrees a cell covers.
public struct Viewport: Sendable, Hashable {
    /// The latitude band a world view must show; Antarctica below it is cropped at world zoom.
    public static let worldNorth = 84.0
    public static let worldSouth = -60.0
    public static let maximumZoom = 4096.0

    public private(set) var width: Int
    public private(set) var height: Int
    public private(set) var centerLatitude: Double
    public private(set) var centerLongitude: Double
    public private(set) var zoom: Double
    /// How much taller than plate carrée the map is drawn (fixed for a given size).
    public private(set) var latitudeStretch: Double

    /// A view of the given size in cells centred on a coordinate.
    public init(width: Int, height: Int, centerLatitude: Double = 12, centerLongitude: Double = 0, zoom: Double = 1) {
        self.width = min(max(1, width), 4096)
        self.height = min(max(1, height), 4096)
        self.centerLatitude = 12
        self.centerLongitude = 0
        self.zoom = 1
        self.latitudeStretch = Self.stretch(width: self.width, height: self.height)
        setZoom(zoom)
        center(latitude: centerLatitude, longitude: centerLongitude)
    }

    /// The whole-world view of the given size.
    public static func world(width: Int, height: Int) -> Viewport {
        Viewport(width: width, height: height)
    }

    // MARK: - Scale

    /// Degrees of longitude a column spans at zoom 1.
    public var worldDegreesPerColumn: Double {
        max(360 / Double(width), (Self.worldNorth - Self.worldSouth) * latitudeStretch / (2 * Double(height)))
    }

    public var degreesPerColumn: Double { worldDegreesPerColumn / zoom }
    public var degreesPerRow: Double { 2 * degreesPerColumn / latitudeStretch }

    /// The stretch that makes the world band fill the height, within 1...1.5.
    static func stretch(width: Int, height: Int) -> Double {
        let fill = (2 * Double(height) / (worldNorth - worldSouth)) / (Double(width) / 360)
        return min(max(fill, 1), 1.5)
    }

    /// Whether the view is zoomed out far enough to crop Antarctica.
    public var isWorldZoom: Bool { zoom < 1.5 }

    /// The latitude and longitude box on screen (longitudes may pass ±180).
    public var visibleRegion: MapRegion {
        let halfLon = Double(width) * degreesPerColumn / 2
        let halfLat = Double(height) * degreesPerRow / 2
        return MapRegion(
            minLatitude: centerLatitude - halfLat, maxLatitude: centerLatitude + halfLat,
            minLongitude: centerLongitude - halfLon, maxLongitude: centerLongitude + halfLon)
    }

    // MARK: - Projection

    /// The cell-space position (fractional column and row) of a coordinate, taking the nearest
    /// copy of the world across ±180°; nil for a coordinate that is not a number.
    public func position(latitude: Double, longitude: Double) -> (column: Double, row: Double)? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90 else { return nil }
        let delta = Self.normalized(longitude - centerLongitude)
        let column = Double(width) / 2 + delta / degreesPerColumn
        let row = Double(height) / 2 + (centerLatitude - latitude) / degreesPerRow
        return (column, row)
    }

    /// The cell a coordinate falls in, or nil when it is off screen or not a number.
    public func cell(latitude: Double, longitude: Double) -> (column: Int, row: Int)? {
        guard let p = position(latitude: latitude, longitude: longitude),
            p.column >= 0, p.row >= 0, p.column < Double(width), p.row < Double(height)
        else { return nil }
        return (Int(p.column), Int(p.row))
    }

    /// The coordinate at a cell-space position (the centre of cell c is c + 0.5).
    public func coordinate(column: Double, row: Double) -> (latitude: Double, longitude: Double) {
        let longitude = centerLongitude + (column - Double(width) / 2) * degreesPerColumn
        let latitude = centerLatitude - (row - Double(height) / 2) * degreesPerRow
        return (latitude, Self.normalized(longitude))
    }

    // MARK: - Moving

    /// Moves the centre by whole cells (positive columns go east, positive rows south).
    public mutating func pan(columns: Int, rows: Int) {
        center(
            latitude: centerLatitude - Double(rows) * degreesPerRow,
            longitude: centerLongitude + Double(columns) * degreesPerColumn)
    }

    /// Multiplies the zoom by a factor (2 zooms in, 0.5 out), keeping the centre.
    public mutating func zoom(by factor: Double) {
        guard factor.isFinite, factor > 0 else { return }
        setZoom(zoom * factor)
        center(latitude: centerLatitude, longitude: centerLongitude)
    }

    /// Zooms by a factor keeping the coordinate under a cell-space point where it is on screen
    /// (mouse-wheel zoom toward the pointer).
    public mutating func zoom(by factor: Double, aroundColumn column: Double, row: Double) {
        guard factor.isFinite, factor > 0, column.isFinite, row.isFinite else { return }
        let anchor = coordinate(column: column, row: row)
        setZoom(zoom * factor)
        // Put the anchor back under the same point.
        let offsetLongitude = (column - Double(width) / 2) * degreesPerColumn
        let offsetLatitude = (row - Double(height) / 2) * degreesPerRow
        center(latitude: anchor.latitude + offsetLatitude, longitude: anchor.longitude - offsetLongitude)
    }

    /// Sets the zoom (clamped to 1...maximumZoom), keeping the centre.
    public mutating func setZoom(_ value: Double) {
        guard value.isFinite else { return }
        zoom = min(max(1, value), Self.maximumZoom)
        center(latitude: centerLatitude, longitude: centerLongitude)
    }

    /// Moves the centre; longitude wraps at ±180°, latitude stays where the map has something.
    public mutating func center(latitude: Double, longitude: Double) {
        if longitude.isFinite { centerLongitude = Self.normalized(longitude) }
        let halfLat = Double(height) * degreesPerRow / 2
        let bandHalf = (Self.worldNorth - Self.worldSouth) / 2
        if halfLat >= bandHalf {
            centerLatitude = (Self.worldNorth + Self.worldSouth) / 2
        } else if latitude.isFinite {
            centerLatitude = min(max(latitude, -90 + halfLat), 90 - halfLat)
        }
    }

    /// Centres on a region and zooms so it fills the view with a small margin.
    /// A region with minLongitude > maxLongitude crosses the antimeridian.
    public mutating func fit(_ region: MapRegion) {
        guard region.isFinite else { return }
        var lonSpan = region.maxLongitude - region.minLongitude
        if lonSpan < 0 { lonSpan += 360 }
        let latSpan = max(0, region.maxLatitude - region.minLatitude)
        let needed = max(lonSpan / Double(width), latSpan * latitudeStretch / (2 * Double(height))) * 1.1
        setZoom(needed > 0 ? worldDegreesPerColumn / needed : Self.maximumZoom)
        center(
            latitude: (region.minLatitude + region.maxLatitude) / 2,
            longitude: region.minLongitude + lonSpan / 2)
    }

    /// Resizes the view, keeping centre and zoom.
    public mutating func resize(width: Int, height: Int) {
        self.width = min(max(1, width), 4096)
        self.height = min(max(1, height), 4096)
        latitudeStretch = Self.stretch(width: self.width, height: self.height)
        center(latitude: centerLatitude, longitude: centerLongitude)
    }

    /// A longitude difference brought into -180..<180.
    static func normalized(_ longitude: Double) -> Double {
        guard longitude.isFinite else { return 0 }
        var value = longitude.truncatingRemainder(dividingBy: 360)
        if value >= 180 { value -= 360 }
        if value < -180 { value += 360 }
        return value
    }
}
