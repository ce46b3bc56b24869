import Geo

/// A geocoder that knows one place: queries starting with "mountain" find Mountain View
/// (California, with Wyoming as the alternative), and one street: "1600 amphitheatre…" finds a
/// street-level answer (`FakeGeocoder.street`) as an online geocoder would; anything else is not
/// found. Optionally slow or failing.
public struct FakeGeocoder: Geocoder {
    public var delay: Duration
    public var failure: GeocodeError?

    /// Google's building in Mountain View, at the precision Nominatim gives it.
    public static let street = Placemark(
        latitude: 37.4224857, longitude: -122.0855846,
        displayName: "Google Building 41, 1600, Amphitheatre Parkway, Mountain View, California, United States",
        precision: .address,
        region: GeoRegion(minLatitude: 37.4221, maxLatitude: 37.4228, minLongitude: -122.0862, maxLongitude: -122.0848))

    public init(delay: Duration = .zero, failure: GeocodeError? = nil) {
        self.delay = delay
        self.failure = failure
    }

    public func geocode(_ query: String) async throws(GeocodeError) -> GeocodeResult {
        if delay > .zero { try? await Task.sleep(for: delay) }
        if let failure { throw failure }
        if query.lowercased().hasPrefix("1600 amphitheatre") { return GeocodeResult(best: Self.street) }
        guard query.lowercased().hasPrefix("mountain") else { throw .notFound(query: query) }
        let region = GeoRegion(minLatitude: 37, maxLatitude: 38, minLongitude: -123, maxLongitude: -122)
        return GeocodeResult(
            best: Placemark(
                latitude: 37.386, longitude: -122.084, displayName: "Mountain View, California, US", precision: .city,
                region: region),
            alternatives: [
                Placemark(
                    latitude: 41.27, longitude: -110.33, displayName: "Mountain View, Wyoming, US", precision: .city,
                    region: region)
            ])
    }
}
