import DemoClass
import Foundation
import OnTheMapModels
import ServerStorage

/// The demo class's rows: 160 students at the `DemoPlaces` on every continent, and the mess that real dumps
/// held (links without a scheme or not links at all, a "John Doe" sample row, several rows per
/// key, two rows with unusable coordinates). Deterministic for a given `now`, so tests can rely
/// on it.
enum DemoRows {
    static let firstNames = [
        "Ada", "Alan", "Grace", "Linus", "Margaret", "Tim", "Barbara", "Dennis", "Frances", "Ken", "Radia", "Guido",
        "Hedy", "Yukihiro", "Sophie", "John", "Karen", "Donald", "Shafi", "Leslie", "Anita", "Vint", "Mary", "Edsger",
        "Priya", "Kwame", "Mei", "Olu", "Santiago", "Ingrid", "Aiko", "Mateo", "Fatima", "Lars", "Zanele", "Rahul",
        "Chloé", "Björn", "Nguyen", "Amara", "Diego", "Hana", "Ivan", "Steven", "Jarrod", "Jessica", "Gabrielle",
    ]
    static let lastNames = [
        "Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Berners-Lee", "Liskov", "Ritchie", "Allen",
        "Thompson", "Perlman", "van Rossum", "Lamarr", "Matsumoto", "Wilson", "McCarthy", "Spärck Jones", "Knuth",
        "Goldwasser", "Lamport", "Borg", "Cerf", "Keller", "Dijkstra", "Raman", "Mensah", "Chen", "Adeyemi",
        "García", "Nilsson", "Tanaka", "Rossi", "Haddad", "Eriksson", "Dlamini", "Sharma", "Dubois", "Ólafsson",
        "Tran", "Okafor", "Fernández", "Kim", "Lares", "O'Toole", "Parker", "Lee", "Nowak",
    ]

    /// The rows, newest first, with `updatedAt` spread over the six weeks before `now`.
    static func locations(now: Date = Date()) -> [StoredLocation] {
        var random = SplitMix64(seed: 0x0A7E_3A90)
        var rows: [StoredLocation] = []
        let places = DemoPlaces.all
        let studentCount = 150
        for index in 0..<studentCount {
            let first = firstNames[Int(random.next() % UInt64(firstNames.count))]
            let last = lastNames[Int(random.next() % UInt64(lastNames.count))]
            let place = places[index % places.count]
            let key = String(2_000_000_000 + random.next() % 7_000_000_000)
            // Half a kilometre or so of jitter: classmates in one city do not share one dot.
            let jitter = { (random.nextUnit() - 0.5) * 0.08 }
            let latitude = min(max(place.1 + jitter(), -90), 90)
            let longitude = min(max(place.2 + jitter(), -180), 180)
            let age = TimeInterval(index) * 6.4 * 3600 + random.nextUnit() * 3600
            rows.append(
                row(
                    key: key, first: first, last: last, place: place.0, link: link(first, last, index),
                    latitude: latitude, longitude: longitude, updated: now.addingTimeInterval(-age - 600),
                    random: &random))
            // Every tenth student posted again from somewhere else earlier (several rows per key).
            if index % 10 == 3 {
                let other = places[(index * 7 + 11) % places.count]
                rows.append(
                    row(
                        key: key, first: first, last: last, place: other.0, link: link(first, last, index + 1),
                        latitude: other.1, longitude: other.2, updated: now.addingTimeInterval(-age - 9 * 86_400),
                        random: &random))
            }
        }
        // The sample row every tutorial posted.
        rows.append(
            row(
                key: "1234", first: "John", last: "Doe", place: "Mountain View, CA", link: "https://udacity.com",
                latitude: 37.386052, longitude: -122.083851, updated: now.addingTimeInterval(-3 * 86_400 - 300),
                random: &random))
        // Rows no client can place: kept as an old server would have, skipped by clients. A month
        // old, below the newest page (limit=100, order=-updatedAt), which holds only rows a strict
        // client decodes: a 2019 app that decodes latitude as required shows an empty map when
        // one such row is among them.
        var missing = row(
            key: "u10000001", first: "Broken", last: "Row", place: "nowhere", link: "", latitude: 0, longitude: 0,
            updated: now.addingTimeInterval(-30 * 86_400), random: &random)
        missing.latitude = nil
        rows.append(missing)
        var outOfRange = row(
            key: "u10000002", first: "Far", last: "Away", place: "beyond the map", link: "http://example.com",
            latitude: 0, longitude: 0, updated: now.addingTimeInterval(-31 * 86_400), random: &random)
        outOfRange.latitude = 123.4
        outOfRange.longitude = 567.8
        rows.append(outOfRange)
        return rows.sorted { $0.updatedAt > $1.updatedAt }
    }

    /// Links as students typed them: mostly fine, some without a scheme, some not links at all.
    private static func link(_ first: String, _ last: String, _ index: Int) -> String {
        let handle = (first + last).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        switch index % 12 {
        case 0, 4, 8: return "https://github.com/\(handle)"
        case 1, 5: return "https://www.linkedin.com/in/\(handle)"
        case 2: return "www.linkedin.com/in/\(handle)"
        case 3: return "https://\(handle).dev"
        case 6: return "http://www.udacity.com"
        case 7: return "google"
        case 9: return "HTTPS://www.google.com"
        case 10: return ""
        default: return "https://medium.com/@\(handle)"
        }
    }

    private static func row(
        key: String, first: String, last: String, place: String, link: String, latitude: Double, longitude: Double,
        updated: Date, random: inout SplitMix64
    ) -> StoredLocation {
        let created = updated.addingTimeInterval(-random.nextUnit() * 3 * 86_400)
        return StoredLocation(
            objectId: RandomID.alphanumeric(10, using: &random), uniqueKey: key, firstName: first, lastName: last,
            mapString: place, mediaURL: link, latitude: latitude, longitude: longitude,
            createdAt: WireDate.string(from: created), updatedAt: WireDate.string(from: updated))
    }
}

/// A small deterministic generator (SplitMix64) for reproducible demo data.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A number in [0, 1).
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
