import Geo

/// A geocoder that knows one place: queries starting with "mountain" find Mountain View
/// (California, with Wyoming as the alternative); anything else is not found. Optionally slow
/// or failing.
public struct FakeGeocoder: Geocoder {
    public var delay: Duration
    public var failure: GeocodeError?

    public init(delay: Duration = .zero, failure: GeocodeError? = nil) {
        self.delay = delay
        self.failure = failure
    }

    public func geocode(_ query: String) async throws(GeocodeError) -> GeocodeResult {
        if delay > .zero { try? await Task.sleep(for: delay) }
        if let failure { throw failure }
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
