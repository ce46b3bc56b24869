import Foundation
import OnTheMapModels
import WorldMap

/// A point on the globe: your own pin, from which distances are measured.
public struct GeoPoint: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Great-circle distance in km (haversine, mean Earth radius 6371 km).
    public func kilometres(to other: GeoPoint) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.latitude - latitude) * radians
        let dLon = (other.longitude - longitude) * radians
        let a =
            sin(dLat / 2) * sin(dLat / 2)
            + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 6371 * 2 * atan2(sqrt(a), sqrt(max(0, 1 - a)))
    }
}

/// What the table and the cards show beside a row's own fields: its country (from the bundled
/// 1:110m country outlines, `PlaceLabels`) and its distance from your pin.
public enum RowFacts {
    private static let cache = CountryCache()

    /// The country whose outline holds the row's pin; a pin just off a coarse coastline (a port
    /// city) is looked up a quarter and a half degree inland too. nil at sea.
    public static func country(of row: StudentInformation) -> String? {
        cache.country(latitude: row.latitude, longitude: row.longitude)
    }

    /// Kilometres from `home` to the row's pin, or nil without a home.
    public static func distance(of row: StudentInformation, from home: GeoPoint?) -> Double? {
        home.map { $0.kilometres(to: GeoPoint(latitude: row.latitude, longitude: row.longitude)) }
    }

    /// "850", "1 264", "12 300": whole kilometres grouped by thousands with a space, for a narrow column.
    public static func distanceText(_ kilometres: Double?) -> String {
        guard let kilometres else { return "" }
        let whole = Int(kilometres.rounded())
        guard whole >= 1000 else { return String(whole) }
        return "\(whole / 1000) \(String(format: "%03d", whole % 1000))"
    }

    /// Lookups are a point-in-polygon test over every country: done once per coordinate.
    private final class CountryCache: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [GeoPoint: String?] = [:]

        func country(latitude: Double, longitude: Double) -> String? {
            let key = GeoPoint(latitude: latitude, longitude: longitude)
            if let known = lock.withLock({ names[key] }) { return known }
            let steps = [(0.0, 0.0), (0.25, 0), (-0.25, 0), (0, 0.25), (0, -0.25), (0.5, 0), (-0.5, 0), (0, 0.5), (0, -0.5)]
            let index = steps.lazy.compactMap { PlaceLabels.country(atLatitude: latitude + $0.0, longitude: longitude + $0.1) }
                .first
            let name = index.map { PlaceLabels.countries[$0].name }
            lock.withLock { names[key] = name }
            return name
        }
    }
}
