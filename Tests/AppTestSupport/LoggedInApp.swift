import Foundation
import APIClient
import ViewModels

/// An app view-model over `api` (a `FakeAPI` by default) that has logged in with the demo
/// account and finished its first download, on a clock that stands still: where most app and
/// screen tests start.
/// - Returns: `nil` when the login or the download did not finish in `eventually`'s time.
@MainActor
public func loggedInApp(
    api: FakeAPI = FakeAPI(), serverName: String = "127.0.0.1:8080", live: FakeLiveChannel? = nil,
    clock: @escaping @Sendable () -> Date = TestClock.fixed
) async -> AppViewModel? {
    let model = AppViewModel(
        api: api, geocoder: FakeGeocoder(), opener: LinkOpener(environment: [:]), serverName: serverName,
        clock: clock, live: live)
    model.login.email = "demo@onthemap.example"
    model.login.password = "onthemap"
    model.submitLogin()
    guard await eventually({ model.phase == .browsing && model.refreshing == nil }) else { return nil }
    return model
}
