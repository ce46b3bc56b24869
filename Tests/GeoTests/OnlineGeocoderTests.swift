import Foundation
import StandIn
import AppTestSupport
import Testing

@testable import Geo

@Suite(.serialized) struct OnlineGeocoderTests {
    func settings(_ server: StandInServer, interval: Duration = .milliseconds(10)) -> OnlineGeocoderSettings {
        OnlineGeocoderSettings(
            baseURL: server.baseURL, userAgent: "onthemap-tests/1.0 (test@example.com)", minimumInterval: interval,
            timeout: 5)
    }

    @Test func nominatimAnswersAndIdentifiesItself() async throws {
        let server = try StandInServer.answering { _ in (200, RecordedResponses.nominatimMountainView) }
        defer { server.stop() }
        let geocoder = OnlineGeocoder(service: .nominatim, settings: settings(server), fallback: nil)
        let result = try await geocoder.geocode("Mountain View, CA")
        #expect(kilometres((result.best.latitude, result.best.longitude), (37.386052, -122.083851)) < 25)
        #expect(result.best.precision == .city)
        #expect(result.best.displayName == "Mountain View, Santa Clara County, California, United States")
        #expect(result.alternatives.count == 1)
        #expect(result.best.region.minLatitude == 37.3557085)
        #expect(result.notice == nil)
        let request = try #require(server.requests.first)
        #expect(request.target.hasPrefix("/search?"))
        #expect(request.target.contains("format=jsonv2"))
        #expect(
            request.target.contains("q=Mountain%20View,%20CA") || request.target.contains("q=Mountain%20View%2C%20CA"))
        #expect(request.headers["user-agent"] == "onthemap-tests/1.0 (test@example.com)")
    }

    @Test func nominatimStreetAddressIsAddressPrecision() async throws {
        let server = try StandInServer.answering { _ in (200, RecordedResponses.nominatimAddress) }
        defer { server.stop() }
        let geocoder = OnlineGeocoder(service: .nominatim, settings: settings(server), fallback: nil)
        let result = try await geocoder.geocode("1600 Amphitheatre Parkway, Mountain View, CA")
        #expect(result.best.precision == .address)
        #expect(kilometres((result.best.latitude, result.best.longitude), (37.4224857, -122.0855846)) < 1)
    }

    @Test func photonAnswersWithItsExtent() async throws {
        let server = try StandInServer.answering { _ in (200, RecordedResponses.photonBerlin) }
        defer { server.stop() }
        let geocoder = OnlineGeocoder(service: .photon, settings: settings(server), fallback: nil)
        let result = try await geocoder.geocode("Berlin")
        #expect(kilometres((result.best.latitude, result.best.longitude), (52.52437, 13.41053)) < 25)
        #expect(result.best.displayName == "Berlin, Germany")
        #expect(
            result.best.region
                == GeoRegion(
                    minLatitude: 52.3382448, maxLatitude: 52.6755087, minLongitude: 13.088345, maxLongitude: 13.7611609)
        )
        #expect(result.alternatives.first?.displayName == "Berlin, New Hampshire, United States")
        #expect(server.requests.first?.target.hasPrefix("/api?q=Berlin") == true)
    }

    @Test func answersAreCached() async throws {
        let server = try StandInServer.answering { _ in (200, RecordedResponses.nominatimMountainView) }
        defer { server.stop() }
        let geocoder = OnlineGeocoder(service: .nominatim, settings: settings(server), fallback: nil)
        let first = try await geocoder.geocode("Mountain View, CA")
        let second = try await geocoder.geocode("mountain view ca")
        #expect(first == second)
        #expect(server.requests.count == 1)
    }

    @Test func atMostOneRequestPerInterval() async throws {
        let server = try StandInServer.answering { _ in (200, RecordedResponses.nominatimMountainView) }
        defer { server.stop() }
        let geocoder = OnlineGeocoder(
            service: .nominatim, settings: settings(server, interval: .milliseconds(300)), fallback: nil)
        await withTaskGroup(of: Void.self) { group in
            for query in ["a place", "another place", "a third place"] {
                group.addTask { _ = try? await geocoder.geocode(query) }
            }
        }
        let times = server.requests.map(\.time).sorted()
        #expect(times.count == 3)
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= .milliseconds(280))
        }
    }

    @Test func unreachableFallsBackToOfflineAndSaysSo() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:\(closedPort())"))
        let settings = OnlineGeocoderSettings(baseURL: url, minimumInterval: .zero, timeout: 3)
        let geocoder = OnlineGeocoder(service: .nominatim, settings: settings)
        let result = try await geocoder.geocode("Mountain View, CA")
        #expect(kilometres((result.best.latitude, result.best.longitude), (37.386052, -122.083851)) < 25)
        #expect(result.notice == "online geocoder Nominatim is unreachable; used the offline gazetteer")

        let strict = OnlineGeocoder(service: .photon, settings: settings, fallback: nil)
        await #expect(throws: GeocodeError.unreachable(service: "Photon")) { try await strict.geocode("Paris") }
    }

    @Test func serverErrorsAndBadAnswersFallBack() async throws {
        let server = try StandInServer.answering { target in target.contains("broken") ? (200, "<html>oops") : (503, "{}") }
        defer { server.stop() }
        let geocoder = OnlineGeocoder(service: .nominatim, settings: settings(server))
        let busy = try await geocoder.geocode("London, UK")
        #expect(busy.notice?.contains("HTTP 503") == true)
        #expect(busy.best.displayName == "London, United Kingdom")
        let broken = try await geocoder.geocode("broken, Paris")
        #expect(broken.notice?.contains("could not be read") == true)
    }

    @Test func nothingFoundIsNotFound() async throws {
        let server = try StandInServer.answering { target in
            target.hasPrefix("/api") ? (200, RecordedResponses.photonEmpty) : (200, RecordedResponses.empty)
        }
        defer { server.stop() }
        for service in OnlineGeocoder.Service.allCases {
            let geocoder = OnlineGeocoder(service: service, settings: settings(server))
            await #expect(throws: GeocodeError.notFound(query: "asdfghjkl")) { try await geocoder.geocode("asdfghjkl") }
            await #expect(throws: GeocodeError.empty) { try await geocoder.geocode("  ") }
            await #expect(throws: GeocodeError.self) {
                try await geocoder.geocode(String(repeating: "x", count: 10_240))
            }
        }
        #expect(server.requests.count == 2)
    }
}
