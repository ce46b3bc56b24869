import Foundation
import Testing

@testable import Geo

/// Every place string of the server's demo class (read from its source, so Geo's tests need
/// not link the server) geocodes offline to within 25 km of the coordinate stored with it.
@Suite struct DemoPlacesTests {
    static func demoPlaces() -> [(String, Double, Double)] {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/OnTheMapServer/Seed/DemoPlaces.swift")
        guard let text = try? String(contentsOf: source, encoding: .utf8),
            let pattern = try? NSRegularExpression(pattern: #"\("([^"]+)", (-?[0-9.]+), (-?[0-9.]+)\)"#)
        else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { match in
            guard let name = Range(match.range(at: 1), in: text), let lat = Range(match.range(at: 2), in: text),
                let lon = Range(match.range(at: 3), in: text), let latitude = Double(text[lat]),
                let longitude = Double(text[lon])
            else { return nil }
            return (String(text[name]), latitude, longitude)
        }
    }

    @Test func everyDemoPlaceResolvesNearby() throws {
        let places = Self.demoPlaces()
        try #require(places.count > 50, "could not read DemoPlaces.swift")
        let geocoder = OfflineGeocoder()
        var misses: [String] = []
        for (name, latitude, longitude) in places {
            // The gazetteer holds cities of 15,000 people or more: a research station is not one.
            if name.hasPrefix("McMurdo") { continue }
            guard let best = try? geocoder.resolve(name).best else {
                misses.append("\(name): not found")
                continue
            }
            let distance = kilometres((best.latitude, best.longitude), (latitude, longitude))
            if distance >= 25 { misses.append("\(name): \(best.displayName), \(Int(distance)) km away") }
        }
        #expect(misses.isEmpty, "\(misses)")
    }
}
