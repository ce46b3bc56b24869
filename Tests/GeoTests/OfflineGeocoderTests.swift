import Foundation
import Testing

@testable import Geo

/// Great-circle distance in kilometres.
func kilometres(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
    let r = 6371.0
    let p1 = a.0 * .pi / 180, p2 = b.0 * .pi / 180
    let dp = (b.0 - a.0) * .pi / 180, dl = (b.1 - a.1) * .pi / 180
    let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
    return 2 * r * asin(min(1, sqrt(h)))
}

struct PlaceCase: CustomTestStringConvertible, Sendable {
    let query: String
    let latitude: Double
    let longitude: Double
    let precision: GeoPrecision
    var testDescription: String { query }
}

let placeTable: [PlaceCase] = [
    // The issue's examples
    PlaceCase(query: "Mountain View, CA", latitude: 37.386052, longitude: -122.083851, precision: .city),
    PlaceCase(query: "Cupertino, CA", latitude: 37.32300, longitude: -122.03218, precision: .city),
    PlaceCase(query: "Las Vegas", latitude: 36.17497, longitude: -115.13722, precision: .city),
    PlaceCase(query: "London, UK", latitude: 51.50853, longitude: -0.12574, precision: .city),
    PlaceCase(query: "Paris", latitude: 48.85341, longitude: 2.3488, precision: .city),
    PlaceCase(query: "São Paulo", latitude: -23.5475, longitude: -46.63611, precision: .city),
    PlaceCase(query: "Sao Paulo", latitude: -23.5475, longitude: -46.63611, precision: .city),
    PlaceCase(query: "München", latitude: 48.13743, longitude: 11.57549, precision: .city),
    PlaceCase(query: "Muenchen", latitude: 48.13743, longitude: 11.57549, precision: .city),
    PlaceCase(query: "Munich, Germany", latitude: 48.13743, longitude: 11.57549, precision: .city),
    PlaceCase(query: "NYC", latitude: 40.71427, longitude: -74.00597, precision: .city),
    PlaceCase(query: "New York", latitude: 40.71427, longitude: -74.00597, precision: .city),
    PlaceCase(query: "New York, NY", latitude: 40.71427, longitude: -74.00597, precision: .city),
    PlaceCase(query: "Costa Rica", latitude: 9.98, longitude: -84.19, precision: .country),
    PlaceCase(query: "Cambridge, MA", latitude: 42.3751, longitude: -71.10561, precision: .city),
    PlaceCase(query: "Cambridge, UK", latitude: 52.2, longitude: 0.11667, precision: .city),
    // Street addresses resolve to their city
    PlaceCase(
        query: "1600 Amphitheatre Pkwy, Mountain View, CA", latitude: 37.386052, longitude: -122.083851,
        precision: .address),
    PlaceCase(
        query: "1600 Amphitheatre Parkway, Mountain View, CA 94043, USA", latitude: 37.386052, longitude: -122.083851,
        precision: .address),
    PlaceCase(
        query: "1600 Amphitheatre Parkway Mountain View CA 94043", latitude: 37.386052, longitude: -122.083851,
        precision: .address),
    PlaceCase(
        query: "1 Infinite Loop, Cupertino, CA 95014", latitude: 37.32300, longitude: -122.03218, precision: .address),
    PlaceCase(query: "221B Baker Street, London, UK", latitude: 51.50853, longitude: -0.12574, precision: .address),
    PlaceCase(query: "10 Downing Street, London", latitude: 51.50853, longitude: -0.12574, precision: .address),
    PlaceCase(
        query: "1 Avenue des Champs-Élysées, Paris, France", latitude: 48.85341, longitude: 2.3488, precision: .address),
    // "City, ST", "City, State", "City, Country"
    PlaceCase(query: "Paris, TX", latitude: 33.66094, longitude: -95.55551, precision: .city),
    PlaceCase(query: "Portland, OR", latitude: 45.52345, longitude: -122.67621, precision: .city),
    PlaceCase(query: "Portland, Maine", latitude: 43.65737, longitude: -70.2589, precision: .city),
    PlaceCase(query: "Springfield, IL", latitude: 39.80172, longitude: -89.64371, precision: .city),
    PlaceCase(query: "Springfield, MA", latitude: 42.10148, longitude: -72.58981, precision: .city),
    PlaceCase(query: "St. Louis, MO", latitude: 38.62727, longitude: -90.19789, precision: .city),
    PlaceCase(query: "Washington, DC", latitude: 38.89511, longitude: -77.03637, precision: .city),
    PlaceCase(query: "Los Angeles, California", latitude: 34.05223, longitude: -118.24368, precision: .city),
    PlaceCase(query: "Honolulu, HI", latitude: 21.30694, longitude: -157.85833, precision: .city),
    PlaceCase(query: "Vancouver, WA", latitude: 45.63873, longitude: -122.66149, precision: .city),
    PlaceCase(query: "Toronto, Canada", latitude: 43.70011, longitude: -79.4163, precision: .city),
    PlaceCase(query: "Toronto, Ontario", latitude: 43.70011, longitude: -79.4163, precision: .city),
    PlaceCase(query: "Toronto, ON", latitude: 43.70011, longitude: -79.4163, precision: .city),
    PlaceCase(query: "Sydney, NSW", latitude: -33.86785, longitude: 151.20732, precision: .city),
    PlaceCase(query: "Sydney, NS", latitude: 46.1351, longitude: -60.1831, precision: .city),
    PlaceCase(query: "Perth, WA", latitude: -31.95224, longitude: 115.8614, precision: .city),
    PlaceCase(query: "Lima, PE", latitude: -12.04318, longitude: -77.02824, precision: .city),
    PlaceCase(query: "Campinas, SP", latitude: -22.90556, longitude: -47.06083, precision: .city),
    PlaceCase(query: "Mountain View CA", latitude: 37.386052, longitude: -122.083851, precision: .city),
    PlaceCase(query: "san francisco", latitude: 37.77493, longitude: -122.41942, precision: .city),
    // Accents and other spellings
    PlaceCase(query: "Zürich", latitude: 47.36667, longitude: 8.55, precision: .city),
    PlaceCase(query: "Zurich", latitude: 47.36667, longitude: 8.55, precision: .city),
    PlaceCase(query: "Kraków", latitude: 50.06143, longitude: 19.93658, precision: .city),
    PlaceCase(query: "Łódź", latitude: 51.75, longitude: 19.46667, precision: .city),
    PlaceCase(query: "Lodz", latitude: 51.75, longitude: 19.46667, precision: .city),
    PlaceCase(query: "Düsseldorf", latitude: 51.22172, longitude: 6.77616, precision: .city),
    PlaceCase(query: "Duesseldorf", latitude: 51.22172, longitude: 6.77616, precision: .city),
    PlaceCase(query: "Köln", latitude: 50.93333, longitude: 6.95, precision: .city),
    PlaceCase(query: "Bombay", latitude: 19.07283, longitude: 72.88261, precision: .city),
    PlaceCase(query: "MEXICO CITY", latitude: 19.42847, longitude: -99.12766, precision: .city),
    // Around the world
    PlaceCase(query: "Tokyo", latitude: 35.6895, longitude: 139.69171, precision: .city),
    PlaceCase(query: "Sydney", latitude: -33.86785, longitude: 151.20732, precision: .city),
    PlaceCase(query: "Cairo", latitude: 30.06263, longitude: 31.24967, precision: .city),
    PlaceCase(query: "Buenos Aires", latitude: -34.61315, longitude: -58.37723, precision: .city),
    PlaceCase(query: "Cape Town", latitude: -33.92584, longitude: 18.42322, precision: .city),
    PlaceCase(query: "Reykjavik", latitude: 64.13548, longitude: -21.89541, precision: .city),
    PlaceCase(query: "Auckland", latitude: -36.84853, longitude: 174.76349, precision: .city),
    PlaceCase(query: "Anchorage, Alaska", latitude: 61.21806, longitude: -149.90028, precision: .city),
    // Countries, aliases and regions
    PlaceCase(query: "USA", latitude: 39.53, longitude: -99.14, precision: .country),
    PlaceCase(query: "UK", latitude: 53.94, longitude: -2.51, precision: .country),
    PlaceCase(query: "France", latitude: 46.62, longitude: 2.45, precision: .country),
    PlaceCase(query: "California", latitude: 37.25, longitude: -119.60, precision: .region),
    PlaceCase(query: "CA", latitude: 37.25, longitude: -119.60, precision: .region),
    PlaceCase(query: "Bay Area", latitude: 37.77, longitude: -122.2, precision: .region),
    PlaceCase(query: "Europe", latitude: 50, longitude: 15, precision: .region),
    PlaceCase(query: "Palo Alto, Bay Area", latitude: 37.44188, longitude: -122.14302, precision: .city),
    PlaceCase(query: "Paris, Europe", latitude: 48.85341, longitude: 2.3488, precision: .city),
]

@Suite struct OfflineGeocoderTests {
    let geocoder = OfflineGeocoder()

    @Test(arguments: placeTable)
    func resolvesWithin25Kilometres(_ place: PlaceCase) async throws {
        let result = try await geocoder.geocode(place.query)
        let distance = kilometres((result.best.latitude, result.best.longitude), (place.latitude, place.longitude))
        #expect(distance < 25, "\(place.query) → \(result.best.displayName) is \(Int(distance)) km away")
        #expect(result.best.precision == place.precision)
    }

    @Test(arguments: [
        "asdfghjkl", "qwertyuiop, zzzzzz", "!!!???", "🙂🙂🙂", "12345", "\u{0}\u{1}\u{7}x\u{1B}[2J",
        String(repeating: "a", count: 10_240), String(repeating: "Paris, ", count: 2_000), "nullundefined", "-",
        "\u{202E}\u{200B}",
    ])
    func garbageFindsNothing(_ query: String) async {
        await #expect(throws: GeocodeError.self) { try await geocoder.geocode(query) }
        do {
            _ = try geocoder.resolve(query)
        } catch {
            guard case .notFound = error else {
                Issue.record("expected notFound, got \(error)")
                return
            }
            #expect(error.userMessage.count < 120)
            #expect(!error.userMessage.contains("\n"))
        }
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func emptyIsEmpty(_ query: String) {
        #expect(throws: GeocodeError.empty) { try geocoder.resolve(query) }
    }

    @Test func springfieldHasRankedAlternatives() throws {
        let result = try geocoder.resolve("Springfield")
        #expect(result.best.displayName.hasPrefix("Springfield, "))
        #expect(result.alternatives.count >= 3)
        let names = Set([result.best.displayName] + result.alternatives.map(\.displayName))
        #expect(names.count == result.alternatives.count + 1)
        #expect(names.contains("Springfield, Illinois, United States"))
        #expect(names.contains("Springfield, Massachusetts, United States"))
    }

    @Test func parisIsFranceNotTexas() throws {
        let result = try geocoder.resolve("Paris")
        #expect(result.best.displayName == "Paris, France")
        #expect(result.alternatives.contains { $0.displayName == "Paris, Texas, United States" })
    }

    @Test func addressSaysCityLevel() throws {
        let result = try geocoder.resolve("1600 Amphitheatre Pkwy, Mountain View, CA")
        #expect(result.best.precision == .address)
        #expect(result.best.displayName == "Mountain View, California, United States")
        #expect(result.notice == OfflineGeocoder.addressNotice)
    }

    @Test func regionsContainTheirPlace() throws {
        for query in ["Mountain View, CA", "Costa Rica", "California", "Tokyo"] {
            let best = try geocoder.resolve(query).best
            #expect(best.region.minLatitude <= best.latitude && best.latitude <= best.region.maxLatitude)
            #expect(best.region.minLongitude <= best.longitude && best.longitude <= best.region.maxLongitude)
        }
    }

    @Test func unknownCityInKnownStateShowsTheStateAndSaysSo() throws {
        let result = try geocoder.resolve("Xyzzyville, CA")
        #expect(result.best.precision == .region)
        #expect(result.notice?.contains("Xyzzyville") == true)
    }

    @Test func foldingMatchesTheDataScript() {
        #expect(NameFolding.fold("São Paulo") == "sao paulo")
        #expect(NameFolding.fold("Łódź") == "lodz")
        #expect(NameFolding.fold("St. Louis") == "st louis")
        #expect(NameFolding.fold("  Saint-Denis ") == "saint denis")
        #expect(NameFolding.fold("Straße") == "strasse")
        #expect(NameFolding.umlautVariant("München") == "muenchen")
    }
}
