import Foundation

extension Gazetteer {
    /// A city's placemark: "Mountain View, California, United States" or "Paris, France".
    func placemark(for city: GazetteerCity, precision: GeoPrecision = .city) -> Placemark {
        var nameParts = [city.name]
        if let state = state(of: city) { nameParts.append(state.name) }
        if let country = country(code: city.countryCode) { nameParts.append(country.name) }
        // Half the side of the box to zoom to grows with the city's size.
        let half = city.population >= 1_000_000 ? 0.4 : (city.population >= 100_000 ? 0.25 : 0.15)
        let halfLongitude = min(half / max(cos(city.latitude * .pi / 180), 0.2), 5)
        let region = GeoRegion(
            minLatitude: max(-90, city.latitude - half), maxLatitude: min(90, city.latitude + half),
            minLongitude: city.longitude - halfLongitude, maxLongitude: city.longitude + halfLongitude)
        return Placemark(
            latitude: city.latitude, longitude: city.longitude, displayName: nameParts.joined(separator: ", "),
            precision: precision, region: region)
    }

    func placemark(for country: GazetteerCountry) -> Placemark {
        Placemark(
            latitude: country.latitude, longitude: country.longitude, displayName: country.name,
            precision: .country, region: country.region)
    }

    func placemark(for region: GazetteerRegion) -> Placemark {
        let countryName = country(code: region.countryCode)?.name
        return Placemark(
            latitude: region.latitude, longitude: region.longitude,
            displayName: [region.name, countryName].compactMap { $0 }.joined(separator: ", "),
            precision: .region, region: region.region)
    }

    func placemark(for qualifier: Qualifier) -> Placemark {
        switch qualifier {
        case .usState(let region), .region(let region): placemark(for: region)
        case .country(let country): placemark(for: country)
        }
    }
}
