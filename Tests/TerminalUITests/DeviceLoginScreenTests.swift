import APIClient
import AppTestSupport
import Foundation
import OnTheMapModels
import Testing
import ViewModels

@testable import TerminalUI

/// "Log in with Facebook" on the login screen and the device login over it: Ctrl-F, the code and
/// QR code, approval → the map, logout → asks again, Esc, denied and expired alerts (issue 12, item 4).
@MainActor
struct DeviceLoginScreenTests {
    static let providers = AuthProviders(providers: [
        .init(type: "password", signup: .open),
        .init(type: "facebook", appId: "app", clientToken: "client", deviceURL: "https://graph.example/device/login",
              tokenURL: "https://graph.example/device/login_status"),
        .init(type: "oauth", name: "github", clientId: "c", deviceURL: "https://github.example/login/device/code",
              tokenURL: "https://github.example/login/oauth/access_token"),
    ])

    /// A code the flow polls for at once (a 10 ms interval), so that tests need no waiting.
    static let quickCode = DeviceCode(
        deviceCode: "device-123", userCode: "WDJB-MJHT", verificationURL: URL(string: "https://www.facebook.com/device")!,
        expiresIn: 600, interval: 0.01)

    func controller(_ api: FakeAPI, _ devices: FakeDeviceLogin) async -> AppController {
        await api.set(providers: .success(Self.providers))
        let model = AppViewModel(
            api: api, geocoder: FakeGeocoder(), opener: LinkOpener(environment: ["BROWSER": "/nonexistent", "PATH": "/nonexistent"]),
            serverName: "127.0.0.1:8080", clock: TestClock.fixed, devices: devices)
        model.login.discoverProviders()
        await model.login.discovery?.value
        return AppController(app: model, ascii: false)
    }

    @Test func theLoginScreenHasOneLinePerOfferedProviderAndNoneWithout() async {
        let ui = await controller(FakeAPI(), FakeDeviceLogin(answers: [.pending]))
        let text = ui.frame(width: 80, height: 30).buffer.text
        #expect(text.contains("[ Log in with Facebook ]"))
        #expect(text.contains("[ Log in with GitHub ]"))
        assertSnapshot(text, named: "login-with-providers-80x30")
        // Tab reaches them, in order, between Log In and the sign-up link.
        #expect(ui.app.login.fields == [.email, .password, .submit, .provider(0), .provider(1), .switchMode])

        let plain = LoginViewModel(api: FakeAPI())
        plain.discoverProviders()
        await plain.discovery?.value
        #expect(!LoginScreen.render(plain, width: 80, height: 30, milliseconds: 0).buffer.text.contains("Log in with"))
    }

    @Test func ctrlFShowsTheCodeAndQRThenApprovalBrowsesAndLogoutAsksAgain() async {
        let api = FakeAPI()
        let devices = FakeDeviceLogin(code: .success(Self.quickCode), answers: [.pending])
        let ui = await controller(api, devices)
        ui.handle(.key(.control("f")))
        #expect(await eventually { ui.app.deviceLogin?.code != nil })
        let text = ui.frame(width: 120, height: 40).buffer.text
        #expect(text.contains("W D J B - M J H T"))
        #expect(text.contains("https://www.facebook.com/device"))
        #expect(text.contains("▀") || text.contains("▄"), "the QR code in half blocks")
        #expect(text.contains("Esc cancel"))
        assertSnapshot(text, named: "device-login-120x40")
        // o hands the address to the opener; with none to start, the box says what to do instead.
        ui.handle(.key(.character("o")))
        #expect(ui.frame(width: 120, height: 40).buffer.text.contains("No browser could be started"))

        await devices.set(answers: [.success(.approved(accessToken: "fb-token"))])
        #expect(await eventually { ui.app.phase == .browsing && ui.app.store.locations.count == 6 })
        #expect(await api.providerCredentials == [.facebook(accessToken: "fb-token")])
        #expect(ui.app.deviceLogin == nil)

        ui.handle(.key(.character("L")))
        #expect(await eventually { ui.app.phase == .login })
        await devices.set(answers: [.success(.pending)])
        ui.handle(.key(.control("f")))
        #expect(await eventually { ui.app.deviceLogin?.code != nil })
        #expect(await devices.calls.filter { $0.hasPrefix("code") }.count == 2, "the provider is asked again")
        ui.handle(.key(.escape))
        #expect(ui.app.deviceLogin == nil)
        #expect(ui.app.phase == .login)
    }

    @Test(arguments: [
        (DevicePoll.denied, "The Facebook login was declined."), (DevicePoll.expired, "The code expired before the login was approved."),
    ])
    func deniedAndExpiredShowTheirAlerts(answer: DevicePoll, expected: String) async {
        let ui = await controller(FakeAPI(), FakeDeviceLogin(code: .success(Self.quickCode), answers: [answer]))
        ui.app.login.focus = .provider(0)
        ui.handle(.key(.enter))
        #expect(await eventually { ui.app.login.alert != nil })
        #expect(ui.app.login.alert?.hasPrefix(expected) == true)
        #expect(ui.frame(width: 160, height: 40).buffer.text.contains(expected))
        #expect(ui.app.phase == .login)
    }

    @Test func theScreenWithoutRoomForTheQRCodeStillShowsTheCode() async {
        let ui = await controller(FakeAPI(), FakeDeviceLogin(code: .success(Self.quickCode), answers: [.pending]))
        ui.handle(.key(.control("f")))
        #expect(await eventually { ui.app.deviceLogin?.code != nil })
        let text = ui.frame(width: 60, height: 24).buffer.text
        #expect(text.contains("W D J B - M J H T"))
        #expect(!text.contains("▀"))
        ui.handle(.key(.escape))
    }
}
