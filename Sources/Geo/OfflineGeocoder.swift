/// The default geocoder: resolves place names with the bundled gazetteer, never the network.
///
/// Understands "City", "City, ST", "City, Country", "Country", aliases (UK, USA, NYC), accents
/// either way (São Paulo / Sao Paulo, München / Muenchen) and street addresses, which resolve
/// to their city with precision `.address`. Only exact (folded) names match, so garbage finds
/// nothing rather than a random far-away place.
public struct OfflineGeocoder: Geocoder {
    public static let addressNotice = "Street address resolved to its city (city-level)."
    /// How many alternatives a result carries at most.
    public static let maximumAlternatives = 5

    /// A given gazetteer, or nil for the bundled one, loaded on the first lookup (not when the
    /// geocoder is made: the app makes one at start, and loading reads all 4.6 MB of tables).
    private let given: Gazetteer?

    var gazetteer: Gazetteer { given ?? .shared }

    /// A geocoder over the bundled gazetteer, which is loaded on the first lookup.
    public init() {
        given = nil
    }

    public init(gazetteer: Gazetteer) {
        given = gazetteer
    }

    public func geocode(_ query: String) async throws(GeocodeError) -> GeocodeResult {
        try resolve(query)
    }

    /// The synchronous lookup behind `geocode` (about a few microseconds).
    public func resolve(_ query: String) throws(GeocodeError) -> GeocodeResult {
        if query.allSatisfy({ $0.isWhitespace }) { throw .empty }
        defer { gazetteer.releaseResidentPages() }
        let shown = Self.shortened(query)
        guard let parsed = PlaceQuery(query) else { throw .notFound(query: shown) }
        var rest = parsed.parts
        var qualifiers: [[Qualifier]] = []
        while rest.count > 1, qualifiers.count < 2 {
            let readings = Qualifier.readings(of: rest[rest.count - 1], in: gazetteer)
            if readings.isEmpty { break }
            qualifiers.append(readings)
            rest.removeLast()
        }
        if qualifiers.isEmpty, rest.count == 1, let whole = wholePlace(rest[0]) {
            return whole
        }
        for index in rest.indices.reversed() {
            let words = rest[index].split(separator: " ").map(String.init)
            let droppedBefore = index > 0
            if let found = citySuffix(words, qualifiers: qualifiers, requireAddress: qualifiers.isEmpty),
                let answer = result(found.matches, address: droppedBefore || found.droppedWords)
            {
                return answer
            }
        }
        if qualifiers.isEmpty, rest.count == 1, let found = wordsWithTrailingQualifier(rest[0]) {
            return found
        }
        if let innermost = qualifiers.last?.first {
            var answer = GeocodeResult(best: gazetteer.placemark(for: innermost))
            let typed = parsed.typedParts[rest.count - 1]
            answer.notice = "No city named \"\(Self.shortened(typed))\" found; showing \(answer.best.displayName)."
            return answer
        }
        throw .notFound(query: shown)
    }

    // MARK: - Steps

    /// A single-part query that names a country, a region, or a city.
    private func wholePlace(_ key: String) -> GeocodeResult? {
        if let country = gazetteer.countries(key: key).first {
            return GeocodeResult(best: gazetteer.placemark(for: country))
        }
        let cities = rankedCities(key, qualifiers: [])
        // A region by name or alias, not by its code alone ("CA" is tried last, below).
        let regionMatch = gazetteer.regions(key: key).first { NameFolding.fold($0.code) != key }
        if let region = regionMatch {
            let biggest = cities.first?.population ?? 0
            if biggest < 500_000 { return GeocodeResult(best: gazetteer.placemark(for: region)) }
        }
        if let found = result(cities, address: false) { return found }
        if let state = gazetteer.regions(key: key).first(where: { $0.countryCode == "US" && !$0.code.isEmpty }) {
            return GeocodeResult(best: gazetteer.placemark(for: state))
        }
        return nil
    }

    /// "Mountain View CA 94043" or "Paris France" without commas: the last words as a
    /// qualifier, the words before as the city.
    private func wordsWithTrailingQualifier(_ part: String) -> GeocodeResult? {
        let words = part.split(separator: " ").map(String.init).filter { !$0.allSatisfy(\.isNumber) }
        guard words.count >= 2 else { return nil }
        for length in stride(from: min(3, words.count - 1), through: 1, by: -1) {
            let readings = Qualifier.readings(of: words.suffix(length).joined(separator: " "), in: gazetteer)
            if readings.isEmpty { continue }
            if let found = citySuffix(Array(words.dropLast(length)), qualifiers: [readings], requireAddress: false),
                let answer = result(found.matches, address: found.droppedWords)
            {
                return answer
            }
        }
        return nil
    }

    /// The longest run of trailing words that names a city passing the qualifiers.
    private func citySuffix(
        _ words: [String], qualifiers: [[Qualifier]], requireAddress: Bool
    ) -> (matches: [GazetteerCity], droppedWords: Bool)? {
        guard !words.isEmpty else { return nil }
        for length in stride(from: min(6, words.count), through: 1, by: -1) {
            let dropped = words.dropLast(length)
            if !dropped.isEmpty, requireAddress, !PlaceQuery.looksLikeAddress(dropped) { continue }
            let matches = rankedCities(words.suffix(length).joined(separator: " "), qualifiers: qualifiers)
            if !matches.isEmpty { return (matches, !dropped.isEmpty) }
        }
        return nil
    }

    /// Cities named `key` that pass every qualifier (each through its first reading that keeps
    /// any city), primary names first by population; an alternate name wins only for a city
    /// at least 50 times bigger (and a million people) than the biggest primary match, and
    /// small alternates are dropped when a primary name matched.
    func rankedCities(_ key: String, qualifiers: [[Qualifier]]) -> [GazetteerCity] {
        let matches = gazetteer.cityMatches(key: key)
        guard !matches.isEmpty else { return [] }
        var primary: [GazetteerCity] = []
        var alternate: [GazetteerCity] = []
        for match in matches {
            guard let city = gazetteer.city(match.cityIndex) else { continue }
            if match.isPrimary { primary.append(city) } else { alternate.append(city) }
        }
        for readings in qualifiers {
            for reading in readings {
                let keptPrimary = primary.filter(reading.accepts)
                let keptAlternate = alternate.filter(reading.accepts)
                if !keptPrimary.isEmpty || !keptAlternate.isEmpty {
                    primary = keptPrimary
                    alternate = keptAlternate
                    break
                }
                if reading == readings.last { return [] }
            }
        }
        let bigPrimary = primary.first?.population ?? 0
        if let bigAlternate = alternate.first, bigAlternate.population >= 1_000_000,
            bigAlternate.population >= 50 * bigPrimary
        {
            return alternate + primary
        }
        // Alternate names give false hits (Parys lists "Paris"): beside primary matches keep
        // only alternates that are big cities.
        return primary + (primary.isEmpty ? alternate : alternate.filter { $0.population >= 1_000_000 })
    }

    private func result(_ cities: [GazetteerCity], address: Bool) -> GeocodeResult? {
        var placemarks: [Placemark] = []
        for city in cities {
            let placemark = gazetteer.placemark(for: city, precision: address ? .address : .city)
            if !placemarks.contains(where: { $0.displayName == placemark.displayName }) {
                placemarks.append(placemark)
            }
            if placemarks.count > Self.maximumAlternatives { break }
        }
        guard let best = placemarks.first else { return nil }
        return GeocodeResult(
            best: best, alternatives: Array(placemarks.dropFirst()), notice: address ? Self.addressNotice : nil)
    }

    static func shortened(_ query: String) -> String {
        let flat = String(query.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        return flat.count > 60 ? String(flat.prefix(57)) + "..." : flat
    }
}
