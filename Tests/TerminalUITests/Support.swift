import APIClient
import Foundation
import Geo
import OnTheMapModels
import Testing

@testable import TerminalUI

/// Compares `text` with `Snapshots/<name>.txt`; rewrites the file when `SNAPSHOT_RECORD=1` (or
/// when it does not exist yet, which also fails the test so new snapshots get reviewed).
func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let file = directory.appendingPathComponent(name + ".txt")
    let record = ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1"
    let existing = try? String(contentsOf: file, encoding: .utf8)
    if record || existing == nil {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? (text + "\n").write(to: file, atomically: true, encoding: .utf8)
        if existing == nil && !record {
            Issue.record("Recorded a new snapshot \(name).txt; check it and run again.", sourceLocation: sourceLocation)
        }
        return
    }
    #expect(existing == text + "\n", "snapshot \(name) differs", sourceLocation: sourceLocation)
}

/// A server that knows the demo account and a fixed set of rows.
actor StubAPI: OnTheMapAPI {
    var rows: [StudentInformation]
    var failLogin: APIError?
    var mine: [StudentInformation] = []
    var signUpPolicy: SignUpPolicy

    init(rows: [StudentInformation] = SampleRows.all, failLogin: APIError? = nil, signUpPolicy: SignUpPolicy = .open) {
        self.rows = rows
        self.failLogin = failLogin
        self.signUpPolicy = signUpPolicy
    }

    func authProviders() async throws(APIError) -> AuthProviders {
        AuthProviders(providers: [.init(type: "password", signup: signUpPolicy)])
    }

    func logIn(email: String, password: String) async throws(APIError) -> UserSession {
        if let failLogin { throw failLogin }
        return UserSession(accountKey: "me", sessionID: "s", expiration: "e")
    }
    func signUp(_ request: SignUpRequest) async throws(APIError) -> UserSession { throw .notLoggedIn }
    func logOut() async throws(APIError) {}
    func publicUser(key: String) async throws(APIError) -> PublicUser {
        PublicUser(key: key, firstName: "Ada", lastName: "Lovelace")
    }
    func locations(_ query: LocationQuery) async throws(APIError) -> StudentLocationList {
        StudentLocationList(locations: Array(rows.dropFirst(query.skip).prefix(query.limit)), skipped: 0)
    }
    func locations(ofUser key: String) async throws(APIError) -> [StudentInformation] { mine }
    func createLocation(_ location: NewStudentLocation) async throws(APIError) -> CreatedLocation {
        CreatedLocation(createdAt: "2026-01-01T00:00:00.000Z", objectId: "new")
    }
    func updateLocation(objectId: String, with location: NewStudentLocation) async throws(APIError) -> UpdatedLocation {
        UpdatedLocation(updatedAt: "2026-01-01T00:00:00.000Z")
    }
}

struct StubGeocoder: Geocoder {
    var delay: Duration = .zero

    func geocode(_ query: String) async throws(GeocodeError) -> GeocodeResult {
        if delay > .zero { try? await Task.sleep(for: delay) }
        guard query.lowercased().hasPrefix("mountain") else { throw .notFound(query: query) }
        let region = GeoRegion(minLatitude: 37, maxLatitude: 38, minLongitude: -123, maxLongitude: -122)
        return GeocodeResult(
            best: Placemark(
                latitude: 37.386, longitude: -122.084, displayName: "Mountain View, California, US", precision: .city,
                region: region),
            alternatives: [
                Placemark(
                    latitude: 41.27, longitude: -110.33, displayName: "Mountain View, Wyoming, US", precision: .city,
                    region: region)
            ])
    }
}

let snapshotNow = Date(timeIntervalSince1970: 1_800_000_000)

/// Rows for screens: ordinary ones, a wide-character one and a hostile one.
enum SampleRows {
    static func make(
        _ id: String, _ first: String, _ last: String, _ place: String, _ link: String, lat: Double, lon: Double,
        hours: Double, key: String? = nil
    )
        -> StudentInformation
    {
        let date = snapshotNow.addingTimeInterval(-hours * 3600)
        return StudentInformation(
            objectId: id, uniqueKey: key ?? "k\(id)", firstName: first, lastName: last, mapString: place,
            mediaURL: link,
            latitude: lat, longitude: lon, createdAt: date, updatedAt: date)
    }

    static let all: [StudentInformation] = [
        make(
            "r1", "Ada", "Lovelace", "London, UK", "https://ada.example", lat: 51.5, lon: -0.13, hours: 0.5, key: "me"),
        make("r2", "José", "Núñez", "Madrid, Spain", "www.linkedin.com/in/jose", lat: 40.4, lon: -3.7, hours: 3),
        make("r3", "美咲", "田中", "東京", "https://github.com/misaki", lat: 35.7, lon: 139.7, hours: 26),
        make(
            "r4", "Evil\u{1B}[31mRed", "\u{1B}]0;pwned\u{07}Name", "\u{202E}lanigiro\u{9B}2J", "javascript:alert(1)",
            lat: -33.9, lon: 151.2, hours: 50),
        make(
            "r5", "Grace", "Hopper", "Arlington, VA", "https://grace.example/" + String(repeating: "x", count: 300),
            lat: 38.9, lon: -77.1, hours: 100),
        make("r6", "Alan", "Turing", "Manchester, UK", "", lat: 53.5, lon: -2.2, hours: 200),
    ]
}

/// Waits until `condition` holds, letting main-actor tasks run.
@MainActor
func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<400 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
