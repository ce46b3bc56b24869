/// The bundled offline gazetteer: GeoNames cities, countries and admin-1 regions.
///
/// Loading only finds the line starts of the city table (no parsing of the 34,000 cities);
/// cities are parsed when a lookup returns them, and names are found by binary search in the
/// sorted name table itself. Lookups give back the tables' pages they read.
public struct Gazetteer: Sendable {
    let cities: TextTable
    let names: SortedLines
    let countries: [GazetteerCountry]
    let regions: [GazetteerRegion]
    let countriesByCode: [String: Int]
    let countriesByKey: [String: [Int]]
    let regionsByKey: [String: [Int]]

    /// The bundled data, loaded once on first use.
    public static let shared = Gazetteer()

    /// Loads the bundled tables (see `shared` to load them once).
    public init() {
        cities = TextTable(gazetteerCities)
        names = SortedLines(gazetteerNames)
        let countryTable = TextTable(gazetteerCountries)
        var countries: [GazetteerCountry] = []
        for line in 0..<countryTable.count {
            let f = countryTable.fields(line)
            guard f.count >= 9, let values = Self.numbers(f[2...7]) else { continue }
            countries.append(
                GazetteerCountry(
                    code: String(f[0]), name: String(f[1]), latitude: values[0], longitude: values[1],
                    region: Self.region(values[2...5]), keys: f[8].split(separator: "|").map(String.init)))
        }
        let regionTable = TextTable(gazetteerRegions)
        var regions: [GazetteerRegion] = []
        for line in 0..<regionTable.count {
            let f = regionTable.fields(line)
            guard f.count >= 10, let values = Self.numbers(f[3...8]) else { continue }
            regions.append(
                GazetteerRegion(
                    countryCode: String(f[0]), code: String(f[1]), name: String(f[2]), latitude: values[0],
                    longitude: values[1], region: Self.region(values[2...5]),
                    keys: f[9].split(separator: "|").map(String.init)))
        }
        var byCode: [String: Int] = [:]
        var byKey: [String: [Int]] = [:]
        for (index, country) in countries.enumerated() {
            byCode[country.code] = index
            for key in country.keys { byKey[key, default: []].append(index) }
        }
        var regionsByKey: [String: [Int]] = [:]
        for (index, region) in regions.enumerated() {
            for key in region.keys { regionsByKey[key, default: []].append(index) }
        }
        self.countries = countries
        self.regions = regions
        self.countriesByCode = byCode
        self.countriesByKey = byKey
        self.regionsByKey = regionsByKey
    }

    public var cityCount: Int { cities.count }

    /// Gives back the pages of the city and name tables that lookups have read: a lookup reads a
    /// few dozen of them, and a session of "Go to" keystrokes would otherwise keep most of the
    /// 4.6 MB resident. Called after each public lookup; the next reads its pages again from the
    /// page cache.
    func releaseResidentPages() {
        cities.releaseResidentPages()
        names.releaseResidentPages()
    }

    // MARK: - Lookups

    /// Cities whose primary or alternate name folds to `key`, primary names first, each group by
    /// falling population (the order the index was written in).
    func cityMatches(key: String) -> [NameMatch] {
        guard !key.isEmpty, key.utf8.count <= 200, let line = names.find(key: Array(key.utf8)) else { return [] }
        let fields = TextTable.fields(of: line)
        guard fields.count == 2 else { return [] }
        return fields[1].split(separator: ",").compactMap { ref in
            let isPrimary = !ref.hasPrefix("~")
            guard let index = Int(isPrimary ? ref : ref.dropFirst()) else { return nil }
            return NameMatch(cityIndex: index, isPrimary: isPrimary)
        }
    }

    /// The city on line `index` of the city table.
    func city(_ index: Int) -> GazetteerCity? {
        let f = cities.fields(index)
        guard f.count >= 6, let latitude = Double(f[1]), let longitude = Double(f[2]) else { return nil }
        return GazetteerCity(
            index: index, name: String(f[0]), latitude: latitude, longitude: longitude,
            countryCode: String(f[3]), admin1: String(f[4]), population: Int(f[5]) ?? 0)
    }

    func countries(key: String) -> [GazetteerCountry] {
        (countriesByKey[key] ?? []).map { countries[$0] }
    }

    func country(code: String) -> GazetteerCountry? {
        countriesByCode[code].map { countries[$0] }
    }

    func regions(key: String) -> [GazetteerRegion] {
        (regionsByKey[key] ?? []).map { regions[$0] }
    }

    /// The US state a city is in (other countries' admin-1 codes are not mapped).
    func state(of city: GazetteerCity) -> GazetteerRegion? {
        guard city.countryCode == "US" else { return nil }
        return regions.first { $0.countryCode == "US" && $0.code == city.admin1 }
    }

    // MARK: - Parsing helpers

    private static func numbers(_ fields: ArraySlice<Substring>) -> [Double]? {
        let values = fields.compactMap { Double($0) }
        return values.count == fields.count ? values : nil
    }

    private static func region(_ v: ArraySlice<Double>) -> GeoRegion {
        let b = Array(v)
        return GeoRegion(minLatitude: b[0], maxLatitude: b[1], minLongitude: b[2], maxLongitude: b[3])
    }
}
