/// How exactly a placemark matches what was typed.
public enum GeoPrecision: String, Codable, Sendable {
    case country
    case region
    case city
    /// A street address resolved only to its city (the offline gazetteer knows no streets).
    case address
}

/// A latitude/longitude box to zoom a map to.
public struct GeoRegion: Codable, Sendable, Hashable {
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
}

/// One answer of a geocoder: where, what it is called, and how precise it is.
public struct Placemark: Codable, Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var displayName: String
    public var precision: GeoPrecision
    public var region: GeoRegion

    public init(latitude: Double, longitude: Double, displayName: String, precision: GeoPrecision, region: GeoRegion) {
        self.latitude = latitude
        self.longitude = longitude
        self.displayName = displayName
        self.precision = precision
        self.region = region
    }
}

/// The best placemark, ranked alternatives when the text is ambiguous, and an optional notice
/// (for example that the online geocoder was unreachable and the offline one answered).
public struct GeocodeResult: Codable, Sendable, Hashable {
    public var best: Placemark
    public var alternatives: [Placemark]
    public var notice: String?

    public init(best: Placemark, alternatives: [Placemark] = [], notice: String? = nil) {
        self.best = best
        self.alternatives = alternatives
        self.notice = notice
    }
}

/// Why a geocode gave no placemark.
public enum GeocodeError: Error, Sendable, Equatable {
    case empty
    case notFound(query: String)
    case unreachable(service: String)

    /// One sentence a user can act on.
    public var userMessage: String {
        switch self {
        case .empty: return "Enter a place to look up."
        case .notFound(let query): return "No place found for “\(query)”."
        case .unreachable(let service): return "The geocoder \(service) cannot be reached."
        }
    }
}

/// Turns a place string ("Mountain View, CA") into a coordinate.
public protocol Geocoder: Sendable {
    func geocode(_ query: String) async throws(GeocodeError) -> GeocodeResult
}
