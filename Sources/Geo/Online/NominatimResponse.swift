import Foundation

/// Reads Nominatim's `/search?format=jsonv2` answer: an array of places.
enum NominatimResponse {
    struct Place: Decodable {
        let lat: String
        let lon: String
        let display_name: String?
        let boundingbox: [String]?
        let addresstype: String?
        let place_rank: Int?
    }

    static func placemarks(from data: Data) throws -> [Placemark] {
        try JSONDecoder().decode([Place].self, from: data).compactMap { place in
            guard let latitude = Double(place.lat), let longitude = Double(place.lon),
                latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
            else { return nil }
            let box = (place.boundingbox ?? []).compactMap(Double.init)
            let region =
                box.count == 4
                ? GeoRegion(minLatitude: box[0], maxLatitude: box[1], minLongitude: box[2], maxLongitude: box[3])
                : GeoRegion.around(latitude: latitude, longitude: longitude)
            return Placemark(
                latitude: latitude, longitude: longitude,
                displayName: place.display_name ?? String(format: "%.5f, %.5f", latitude, longitude),
                precision: precision(type: place.addresstype, rank: place.place_rank), region: region)
        }
    }

    /// The answer's class, from its `addresstype`, else its `place_rank`. An answer with neither is
    /// of unknown precision and is taken as an address: `Precision.city` then rounds it, since only
    /// a positive city, region or country class may leave the client unrounded.
    static func precision(type: String?, rank: Int?) -> GeoPrecision {
        switch type {
        case "country": return .country
        case "state", "region", "province", "county", "state_district": return .region
        case "city", "town", "village", "hamlet", "municipality", "suburb", "borough", "quarter",
            "neighbourhood":
            return .city
        case .some: return .address
        case .none: break
        }
        guard let rank else { return .address }
        switch rank {
        case ...4: return .country
        case ...12: return .region
        case ...25: return .city
        default: return .address
        }
    }
}

extension GeoRegion {
    /// A small box around a point, for answers that carry no extent.
    static func around(latitude: Double, longitude: Double, half: Double = 0.1) -> GeoRegion {
        GeoRegion(
            minLatitude: max(-90, latitude - half), maxLatitude: min(90, latitude + half),
            minLongitude: longitude - half, maxLongitude: longitude + half)
    }
}
