import Foundation
import AppTestSupport
import Testing

@testable import Geo

struct PrecisionTests {
    let street = Placemark(
        latitude: 38.7107544, longitude: -9.1367201, displayName: "Rua Augusta 24, Lisboa, Portugal",
        precision: .address,
        region: GeoRegion(minLatitude: 38.7106, maxLatitude: 38.7109, minLongitude: -9.1369, maxLongitude: -9.1365))

    @Test func cityRoundsAStreetAnswerToWholeHundredths() {
        let coarse = Precision.city.coarsen(street)
        #expect(coarse.latitude == 38.71)
        #expect(coarse.longitude == -9.14)
        #expect(coarse.precision == .city)
        #expect(coarse.displayName == street.displayName)
        // The preview's box is the grid cell's neighbourhood, not the building's.
        #expect(coarse.region.maxLatitude - coarse.region.minLatitude > 0.09)
        // Moved, but not far: at most half a grid step each way.
        #expect(abs(coarse.latitude - street.latitude) <= 0.005)
        #expect(abs(coarse.longitude - street.longitude) <= 0.005)
    }

    @Test func exactAndPlacesAreLeftAsTheyAre() {
        #expect(Precision.exact.coarsen(street) == street)
        for precision in [GeoPrecision.city, .region, .country] {
            var place = street
            place.precision = precision
            #expect(Precision.city.coarsen(place) == place)
        }
    }

    @Test func coarseningTwiceChangesNothing() {
        let once = Precision.city.coarsen(street)
        var asStreet = once
        asStreet.precision = .address
        #expect(Precision.city.coarsen(asStreet).latitude == once.latitude)
        #expect(Precision.city.coarsen(asStreet).longitude == once.longitude)
    }

    /// Whatever the latitude, neighbouring grid points are about 0.8 km or more apart east–west,
    /// and exactly 0.01° (1.1 km) north–south.
    @Test(arguments: [0.0, 30.0, 45.0, 52.5, 60.0, 69.6, 78.2, -33.9, -54.8, 89.9])
    func theGridIsNeverFinerThanAboutAKilometre(latitude: Double) {
        let here = Precision.cityGrid(latitude: latitude, longitude: 10.004)
        var step = 0.0
        var longitude = 10.004
        while step == 0, longitude < 12 {
            longitude += 0.001
            step = abs(Precision.cityGrid(latitude: latitude, longitude: longitude).longitude - here.longitude)
        }
        let kilometresPerDegree = 111.32 * cos(here.latitude * .pi / 180)
        #expect(step * kilometresPerDegree >= 0.77 || here.latitude == 90 || abs(here.latitude) > 89)
        #expect(abs(here.latitude * 100 - (here.latitude * 100).rounded()) < 1e-9)
        #expect(abs(here.longitude * 100 - (here.longitude * 100).rounded()) < 1e-9)
    }

    @Test func theDateLineStaysInRange() {
        let east = Precision.cityGrid(latitude: 0, longitude: 179.998)
        let west = Precision.cityGrid(latitude: 0, longitude: -179.998)
        #expect(east.longitude <= 180 && east.longitude >= -180)
        #expect(west.longitude <= 180 && west.longitude >= -180)
        let north = Precision.cityGrid(latitude: 89.999, longitude: 1)
        #expect(north.latitude == 90)
    }

    /// Privacy does not rest on a guess: an online answer that says nothing of its class (Nominatim
    /// without `addresstype` and `place_rank`, Photon without `type`) is an address, and `city`
    /// rounds it. This street answer had gone out as 37.80123456, -122.27123456.
    @Test func anAnswerOfUnknownClassIsRoundedLikeAnAddress() throws {
        let nominatim = try NominatimResponse.placemarks(
            from: Data(#"[{"lat":"37.80123456","lon":"-122.27123456","display_name":"1 Broadway, Oakland"}]"#.utf8))
        let photon = try PhotonResponse.placemarks(
            from: Data(
                #"{"features":[{"geometry":{"coordinates":[-122.27123456,37.80123456]},"properties":{"name":"1 Broadway"}}]}"#
                    .utf8))
        for answer in [try #require(nominatim.first), try #require(photon.first)] {
            #expect(answer.precision == .address)
            let posted = Precision.city.coarsen(answer)
            #expect(posted.latitude == 37.8 && posted.longitude == -122.27, "\(posted)")
            #expect(Precision.exact.coarsen(answer).latitude == 37.80123456)
        }
        // A class, or a rank, that names a place is still believed.
        #expect(NominatimResponse.precision(type: nil, rank: 16) == .city)
        #expect(NominatimResponse.precision(type: "country", rank: nil) == .country)
        #expect(NominatimResponse.precision(type: nil, rank: 30) == .address)
        #expect(PhotonResponse.precision(type: "city") == .city)
    }

    @Test func theFakeStreetAnswerIsCoarsenedToo() {
        let coarse = Precision.city.coarsen(FakeGeocoder.street)
        #expect(coarse.latitude == 37.42)
        #expect(coarse.longitude == -122.09)
    }
}
