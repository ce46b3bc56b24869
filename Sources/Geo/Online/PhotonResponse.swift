import Foundation

/// Reads Photon's `/api?q=` answer: a GeoJSON FeatureCollection.
enum PhotonResponse {
    struct Collection: Decodable {
        let features: [Feature]
    }

    struct Feature: Decodable {
        let geometry: Geometry
        let properties: Properties
    }

    struct Geometry: Decodable {
        let coordinates: [Double]
    }

    struct Properties: Decodable {
        let name: String?
        let housenumber: String?
        let street: String?
        let city: String?
        let state: String?
        let country: String?
        let type: String?
        /// [min longitude, max latitude, max longitude, min latitude]
        let extent: [Double]?
    }

    static func placemarks(from data: Data) throws -> [Placemark] {
        try JSONDecoder().decode(Collection.self, from: data).features.compactMap { feature in
            let c = feature.geometry.coordinates
            guard c.count >= 2, c[0].isFinite, c[1].isFinite, abs(c[1]) <= 90, abs(c[0]) <= 180 else { return nil }
            let p = feature.properties
            var region = GeoRegion.around(latitude: c[1], longitude: c[0])
            if let e = p.extent, e.count == 4, e.allSatisfy(\.isFinite) {
                region = GeoRegion(minLatitude: e[3], maxLatitude: e[1], minLongitude: e[0], maxLongitude: e[2])
            }
            let street = [p.housenumber, p.street].compactMap { $0 }.joined(separator: " ")
            var parts = [p.name ?? (street.isEmpty ? nil : street)]
            if p.city != p.name { parts.append(p.city) }
            parts += [p.state, p.country]
            let name = parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
            return Placemark(
                latitude: c[1], longitude: c[0],
                displayName: name.isEmpty ? String(format: "%.5f, %.5f", c[1], c[0]) : name,
                precision: precision(type: p.type), region: region)
        }
    }

    /// The answer's class from its `type`; any other type, or none, is taken as an address (see
    /// `NominatimResponse.precision(type:rank:)`).
    static func precision(type: String?) -> GeoPrecision {
        switch type {
        case "country": .country
        case "state", "county": .region
        case "city", "district", "locality": .city
        default: .address
        }
    }
}
