import Foundation
import Geo

/// The geocoder the app uses.
enum AppGeocoder {
    static func make() -> any Geocoder {
        FixedGeocoder()
    }
}

/// TEMPORARY: a handful of demo cities, until the offline gazetteer (`geo` branch) is merged.
struct FixedGeocoder: Geocoder {
    static let places: [(names: [String], name: String, latitude: Double, longitude: Double)] = [
        (["mountain view", "mountain view, ca"], "Mountain View, California, United States", 37.386, -122.084),
        (["san francisco", "sf"], "San Francisco, California, United States", 37.775, -122.419),
        (["new york", "nyc"], "New York, United States", 40.713, -74.006),
        (["london"], "London, United Kingdom", 51.507, -0.128),
        (["paris"], "Paris, France", 48.857, 2.352),
        (["berlin"], "Berlin, Germany", 52.520, 13.405),
        (["tokyo"], "Tokyo, Japan", 35.690, 139.692),
        (["são paulo", "sao paulo"], "São Paulo, Brazil", -23.550, -46.633),
        (["lagos"], "Lagos, Nigeria", 6.455, 3.394),
        (["sydney"], "Sydney, Australia", -33.869, 151.209),
    ]

    func geocode(_ query: String) async throws(GeocodeError) -> GeocodeResult {
        let text = query.trimmingCharacters(in: .whitespaces).lowercased()
        guard !text.isEmpty else { throw .empty }
        guard let place = Self.places.first(where: { $0.names.contains(text) || $0.names.contains { text.hasPrefix($0 + ",") } }) else {
            throw .notFound(query: query)
        }
        let region = GeoRegion(
            minLatitude: place.latitude - 0.5, maxLatitude: place.latitude + 0.5, minLongitude: place.longitude - 0.5,
            maxLongitude: place.longitude + 0.5)
        return GeocodeResult(
            best: Placemark(latitude: place.latitude, longitude: place.longitude, displayName: place.name, precision: .city, region: region))
    }
}
