/// A latitude/longitude box, for example a place to zoom to.
public struct MapRegion: Sendable, Hashable {
    public var minLatitude: Double
    public var maxLatitude: Double
    public var minLongitude: Double
    public var maxLongitude: Double

    public init(minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double) {
        self.minLatitude = minLatitude
        self.maxLatitude = maxLatitude
        self.minLongitude = minLongitude
        self.maxLongitude = maxLongitude
    }

    /// The whole world.
    public static let world = MapRegion(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)

    /// Whether every bound is a finite number.
    public var isFinite: Bool {
        minLatitude.isFinite && maxLatitude.isFinite && minLongitude.isFinite && maxLongitude.isFinite
    }
}

extension MapRegion {
    /// The smallest box holding every coordinate (crossing the antimeridian when that is
    /// narrower: minLongitude > maxLongitude then), at least `minimumSpan` degrees each way;
    /// nil when no coordinate can be drawn.
    public static func enclosing(
        _ points: [(latitude: Double, longitude: Double)], minimumSpan: Double = 1
    ) -> MapRegion? {
        let drawable = points.filter { $0.latitude.isFinite && $0.longitude.isFinite && abs($0.latitude) <= 90 }
        guard !drawable.isEmpty else { return nil }
        let latitudes = drawable.map(\.latitude)
        let longitudes = drawable.map { Viewport.normalized($0.longitude) }.sorted()
        // The widest gap between neighbouring longitudes (around the globe) is left out.
        var gap = (size: longitudes[0] + 360 - longitudes[longitudes.count - 1], after: longitudes.count - 1)
        for index in 0..<(longitudes.count - 1) where longitudes[index + 1] - longitudes[index] > gap.size {
            gap = (longitudes[index + 1] - longitudes[index], index)
        }
        var west = longitudes[(gap.after + 1) % longitudes.count]
        var east = longitudes[gap.after]
        var south = latitudes.min() ?? 0
        var north = latitudes.max() ?? 0
        var span = east - west
        if span < 0 { span += 360 }
        if span < minimumSpan {
            west -= (minimumSpan - span) / 2
            east += (minimumSpan - span) / 2
        }
        if north - south < minimumSpan {
            let middle = (north + south) / 2
            (south, north) = (middle - minimumSpan / 2, middle + minimumSpan / 2)
        }
        return MapRegion(
            minLatitude: south, maxLatitude: north, minLongitude: Viewport.normalized(west),
            maxLongitude: Viewport.normalized(east))
    }
}
