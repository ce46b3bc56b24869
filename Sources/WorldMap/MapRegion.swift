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
