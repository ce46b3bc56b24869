import APIClient
import Foundation
import Geo
import OnTheMapModels

/// A scripted server: answers from its fields and records what was asked.
actor FakeAPI: OnTheMapAPI {
    var loginResult: Result<UserSession, APIError> = .success(
        UserSession(accountKey: "u1", sessionID: "s", expiration: "e"))
    var pages: [[StudentInformation]] = []
    /// When set, the whole list as the server holds it, newest first; `nil` is a broken row that
    /// decoding skips. Pages are cut from it by skip and limit (instead of `pages`).
    var stream: [StudentInformation?]?
    var locationsError: APIError?
    var mine: [StudentInformation] = []
    var user = PublicUser(key: "u1", firstName: "Ada", lastName: "Lovelace")
    /// What `GET …/auth/providers` answers.
    var providers: Result<AuthProviders, APIError> = .success(.originalServices)
    /// When set, what a sign-up answers (else `loginResult`).
    var signUpResult: Result<UserSession, APIError>?
    private(set) var signUps: [SignUpRequest] = []
    private(set) var calls: [String] = []
    private(set) var created: [NewStudentLocation] = []
    private(set) var updated: [(String, NewStudentLocation)] = []

    func set(login: Result<UserSession, APIError>) { loginResult = login }
    func set(pages: [[StudentInformation]]) { self.pages = pages }
    func set(stream: [StudentInformation?]) { self.stream = stream }
    func set(locationsError: APIError?) { self.locationsError = locationsError }
    func set(mine: [StudentInformation]) { self.mine = mine }

    func logIn(email: String, password: String) async throws(APIError) -> UserSession {
        calls.append("logIn \(email)")
        return try loginResult.get()
    }

    func set(providers: Result<AuthProviders, APIError>) { self.providers = providers }
    func set(signUp: Result<UserSession, APIError>) { signUpResult = signUp }

    func authProviders() async throws(APIError) -> AuthProviders {
        calls.append("authProviders")
        return try providers.get()
    }

    func signUp(_ request: SignUpRequest) async throws(APIError) -> UserSession {
        calls.append("signUp \(request.email)")
        signUps.append(request)
        return try (signUpResult ?? loginResult).get()
    }

    func logOut() async throws(APIError) { calls.append("logOut") }

    func publicUser(key: String) async throws(APIError) -> PublicUser {
        calls.append("publicUser \(key)")
        return user
    }

    func locations(_ query: LocationQuery) async throws(APIError) -> StudentLocationList {
        calls.append("locations skip=\(query.skip) limit=\(query.limit)")
        if let locationsError { throw locationsError }
        if let stream {
            let slice = stream.dropFirst(query.skip).prefix(query.limit)
            let usable = slice.compactMap { $0 }
            return StudentLocationList(locations: usable, skipped: slice.count - usable.count)
        }
        let index = query.skip / max(1, query.limit)
        return StudentLocationList(locations: index < pages.count ? pages[index] : [], skipped: 0)
    }

    func locations(ofUser key: String) async throws(APIError) -> [StudentInformation] {
        calls.append("locationsOf \(key)")
        return mine
    }

    func createLocation(_ location: NewStudentLocation) async throws(APIError) -> CreatedLocation {
        calls.append("create")
        created.append(location)
        return CreatedLocation(createdAt: "2026-01-01T00:00:00.000Z", objectId: "new1")
    }

    func updateLocation(objectId: String, with location: NewStudentLocation) async throws(APIError) -> UpdatedLocation {
        calls.append("update \(objectId)")
        updated.append((objectId, location))
        return UpdatedLocation(updatedAt: "2026-01-01T00:00:00.000Z")
    }
}

/// A geocoder that answers from a table, optionally after a delay.
struct FakeGeocoder: Geocoder {
    var delay: Duration = .zero
    var failure: GeocodeError?

    func geocode(_ query: String) async throws(GeocodeError) -> GeocodeResult {
        if delay > .zero { try? await Task.sleep(for: delay) }
        if let failure { throw failure }
        let region = GeoRegion(minLatitude: 37, maxLatitude: 38, minLongitude: -123, maxLongitude: -122)
        return GeocodeResult(
            best: Placemark(
                latitude: 37.39, longitude: -122.08, displayName: "Mountain View, US", precision: .city, region: region),
            alternatives: [
                Placemark(
                    latitude: 40, longitude: -100, displayName: "Mountain View, WY", precision: .city, region: region)
            ])
    }
}

func row(
    _ id: String, _ name: String, place: String = "Somewhere", link: String = "https://example.com",
    hoursAgo: Double = 1
)
    -> StudentInformation
{
    let parts = name.split(separator: " ").map(String.init)
    let date = Date(timeIntervalSince1970: 1_800_000_000 - hoursAgo * 3600)
    return StudentInformation(
        objectId: id, uniqueKey: "k-\(id)", firstName: parts.first ?? "",
        lastName: parts.dropFirst().joined(separator: " "),
        mapString: place, mediaURL: link, latitude: 10, longitude: 20, createdAt: date, updatedAt: date)
}

let fixedNow: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }

/// Waits (briefly) until `condition` holds, letting main-actor tasks run.
@MainActor
func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<400 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
