import DemoClass
import Foundation
import Testing

@testable import Geo

/// Every place string of the server's demo class geocodes offline to within 25 km of the
/// coordinate stored with it.
@Suite struct DemoPlacesTests {
    /// The demo class's places, as the server seeds them (the DemoClass target).
    static func demoPlaces() -> [(String, Double, Double)] { DemoPlaces.all }

    @Test func everyDemoPlaceResolvesNearby() throws {
        let places = Self.demoPlaces()
        try #require(places.count > 50)
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
