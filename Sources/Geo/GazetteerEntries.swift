/// A city of the gazetteer (GeoNames cities15000).
struct GazetteerCity: Sendable, Hashable {
    let index: Int
    let name: String
    let latitude: Double
    let longitude: Double
    let countryCode: String
    /// The admin-1 code: for the US the state's postal code ("CA"); elsewhere GeoNames' own.
    let admin1: String
    let population: Int
}

/// A country, with its label point and mainland extent (Natural Earth) and folded aliases.
struct GazetteerCountry: Sendable, Hashable {
    let code: String
    let name: String
    let latitude: Double
    let longitude: Double
    let region: GeoRegion
    let keys: [String]
}

/// An admin-1 region: every US state, plus Canada's, Brazil's and Australia's (Natural Earth).
struct GazetteerRegion: Sendable, Hashable {
    let countryCode: String
    let code: String
    let name: String
    let latitude: Double
    let longitude: Double
    let region: GeoRegion
    let keys: [String]

    /// Whether a coordinate lies in the region's extent (with a small margin).
    func contains(latitude: Double, longitude: Double) -> Bool {
        latitude >= region.minLatitude - 0.3 && latitude <= region.maxLatitude + 0.3
            && longitude >= region.minLongitude - 0.3 && longitude <= region.maxLongitude + 0.3
    }
}

/// A name-index hit: a city and whether the name is its primary name or an alternate.
struct NameMatch: Sendable, Hashable {
    let cityIndex: Int
    let isPrimary: Bool
}
