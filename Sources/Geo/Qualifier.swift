/// One reading of a trailing query part such as "CA", "UK" or "Ontario": a filter on cities.
enum Qualifier: Sendable, Hashable {
    case usState(GazetteerRegion)
    case region(GazetteerRegion)
    case country(GazetteerCountry)

    /// Whether a city lies in the state, region or country.
    func accepts(_ city: GazetteerCity) -> Bool {
        switch self {
        case .usState(let state): city.countryCode == "US" && city.admin1 == state.code
        case .region(let region):
            (region.countryCode.isEmpty || city.countryCode == region.countryCode)
                && region.contains(latitude: city.latitude, longitude: city.longitude)
        case .country(let country): city.countryCode == country.code
        }
    }

    /// Every reading of a folded part, most likely first: a US state before anything else
    /// ("CA" is California before Canada), then other regions and areas ("Bay Area",
    /// "Europe"), then countries. Zip codes and
    /// other all-digit words are ignored ("CA 94043" reads as "CA").
    static func readings(of part: String, in gazetteer: Gazetteer) -> [Qualifier] {
        let key = part.split(separator: " ").filter { !$0.allSatisfy(\.isNumber) }.joined(separator: " ")
        guard !key.isEmpty else { return [] }
        let regions = gazetteer.regions(key: key)
        let states = regions.filter { $0.countryCode == "US" && !$0.code.isEmpty }
        var readings = states.map(Qualifier.usState)
        readings += regions.filter { !states.contains($0) }.map(Qualifier.region)
        readings += gazetteer.countries(key: key).map(Qualifier.country)
        if key.count == 2, let country = gazetteer.country(code: key.uppercased()),
            !readings.contains(.country(country))
        {
            readings.append(.country(country))
        }
        return readings
    }
}
