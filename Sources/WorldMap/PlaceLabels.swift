/// A name to write on the map: a country at its label point, or a city.
public struct PlaceLabel: Sendable, Hashable {
    public let name: String
    /// The name in ASCII, or nil when it has no ASCII reading (then ASCII maps leave it out).
    public let asciiName: String?
    public let latitude: Double
    public let longitude: Double
    /// Area in km² for a country, people for a city: larger ones are placed first.
    public let rank: Int
}

/// The bundled labels (Sources/WorldMap/Generated/MapLabels.swift): Natural Earth's 1:110m
/// countries and GeoNames cities of 50,000+ people and capitals, largest first.
public enum PlaceLabels {
    /// Countries in the order of Natural Earth's 1:110m features (`countryOfRing` refers to it).
    public static let countries: [PlaceLabel] = parse(countryLabelsText)
    /// Cities, most populous first (compact: names are read when asked for).
    public static let cities = CityLabels(cityLabelsText)
    /// Countries sorted by area, largest first (indexes into `countries`).
    static let countriesBySize: [Int] = countries.indices.sorted { countries[$0].rank > countries[$1].rank }
    /// For each ring of `LandRings.coarse`, the index of its country in `countries`.
    static let countryOfRing: [UInt8] = Base64.decode(land110mCountryOfRingBase64)
    /// For each country, its rings in `LandRings.coarse`.
    static let ringsOfCountry: [[Int]] = {
        var rings = [[Int]](repeating: [], count: countries.count)
        for (ring, country) in countryOfRing.enumerated() where Int(country) < rings.count {
            rings[Int(country)].append(ring)
        }
        return rings
    }()

    /// Whether a coordinate lies in a country (1:110m outline, even-odd over its rings).
    static func country(_ index: Int, contains latitude: Double, _ longitude: Double) -> Bool {
        guard index >= 0, index < ringsOfCountry.count else { return false }
        let land = LandRings.coarse
        let x = longitude * 100
        let y = latitude * 100
        var inside = false
        for ring in ringsOfCountry[index] {
            let box = land.bounds[ring]
            guard x >= Double(box.0), x <= Double(box.1), y >= Double(box.2), y <= Double(box.3) else { continue }
            let start = land.ringStarts[ring]
            let end = land.ringStarts[ring + 1]
            var j = end - 1
            for i in start..<end {
                let (xi, yi) = (Double(land.coordinates[i * 2]), Double(land.coordinates[i * 2 + 1]))
                let (xj, yj) = (Double(land.coordinates[j * 2]), Double(land.coordinates[j * 2 + 1]))
                if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    /// The country (index into `countries`) whose 1:110m outline holds a coordinate, if any.
    public static func country(atLatitude latitude: Double, longitude: Double) -> Int? {
        countries.indices.first { country($0, contains: latitude, longitude) }
    }

    /// The bounding box of a country's 1:110m rings, in degrees (min lat, max lat, min lon, max lon).
    static func box(ofCountry index: Int) -> (Double, Double, Double, Double)? {
        guard index >= 0, index < ringsOfCountry.count, !ringsOfCountry[index].isEmpty else { return nil }
        var box = (Int16.max, Int16.min, Int16.max, Int16.min)
        for ring in ringsOfCountry[index] {
            let b = LandRings.coarse.bounds[ring]
            box = (min(box.0, b.0), max(box.1, b.1), min(box.2, b.2), max(box.3, b.3))
        }
        return (Double(box.2) / 100, Double(box.3) / 100, Double(box.0) / 100, Double(box.1) / 100)
    }

    /// Lines of `name<TAB>lat<TAB>lon<TAB>rank[<TAB>ascii]`.
    static func parse(_ text: StaticString) -> [PlaceLabel] {
        guard text.hasPointerRepresentation else { return [] }
        let buffer = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        var labels: [PlaceLabel] = []
        for line in buffer.split(separator: 10) {
            let fields = line.split(separator: 9, omittingEmptySubsequences: false).map {
                String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self)
            }
            guard fields.count >= 4, let lat = Double(fields[1]), let lon = Double(fields[2]), let rank = Int(fields[3])
            else { continue }
            let ascii: String? = fields.count > 4 ? (fields[4].isEmpty ? nil : fields[4]) : fields[0]
            labels.append(PlaceLabel(name: fields[0], asciiName: ascii, latitude: lat, longitude: lon, rank: rank))
        }
        return labels
    }
}
