import APIClient
import AppTestSupport
import Foundation
import OnTheMapModels
import Testing

@testable import ViewModels

/// The device-login state machine against a scripted provider and a fake clock: the interval,
/// slow down, expiry, denial, a refused token, cancelling (issue 12, items 4 and 5).
@MainActor
struct DeviceLoginFlowTests {
    func flow(_ devices: FakeDeviceLogin, api: FakeAPI = FakeAPI(), sleeper: FakeSleeper = FakeSleeper()) -> DeviceLoginFlow {
        DeviceLoginFlow(
            provider: FakeDeviceLogin.facebook, api: api, devices: devices, clock: sleeper.clock.read, sleep: sleeper.sleep)
    }

    @Test func pollsAtTheIntervalUntilApprovedThenLogsInWithTheToken() async {
        let devices = FakeDeviceLogin(answers: [.pending, .pending, .approved(accessToken: "fb-token")])
        let api = FakeAPI()
        let sleeper = FakeSleeper()
        let flow = flow(devices, api: api, sleeper: sleeper)
        let session = await flow.run()
        #expect(session?.accountKey == FakeAPI.accountKey)
        #expect(sleeper.waits == [5, 5, 5])
        #expect(await devices.calls == ["code facebook", "poll device-123", "poll device-123", "poll device-123"])
        #expect(await api.providerCredentials == [.facebook(accessToken: "fb-token")])
        #expect(flow.phase == .finished(session!))
        // The token is nowhere in the flow's state.
        #expect(!String(describing: flow.phase).contains("fb-token"))
    }

    @Test func slowDownAddsFiveSecondsForEveryLaterPoll() async {
        let devices = FakeDeviceLogin(answers: [.pending, .slowDown, .pending, .slowDown, .approved(accessToken: "t")])
        let sleeper = FakeSleeper()
        let flow = flow(devices, sleeper: sleeper)
        _ = await flow.run()
        #expect(sleeper.waits == [5, 5, 10, 10, 15])
        #expect(flow.interval == 15)
    }

    @Test func theCodeExpiresByTheClockEvenIfTheProviderKeepsSayingPending() async {
        var code = FakeDeviceLogin.sampleCode
        code.expiresIn = 12
        let devices = FakeDeviceLogin(code: .success(code), answers: [.pending])
        let sleeper = FakeSleeper()
        let flow = flow(devices, sleeper: sleeper)
        #expect(await flow.run() == nil)
        #expect(flow.phase == .failed(.expired))
        // Polled at 5 and 10 s; at 15 s the code was past its 12 s.
        #expect(await devices.calls.count == 3)
    }

    @Test(arguments: [
        (DevicePoll.denied, DeviceLoginFailure.denied(provider: "Facebook")), (DevicePoll.expired, DeviceLoginFailure.expired),
    ])
    func deniedAndExpiredEndWithTheirOwnFailure(answer: DevicePoll, failure: DeviceLoginFailure) async {
        let api = FakeAPI()
        let flow = flow(FakeDeviceLogin(answers: [.pending, answer]), api: api)
        #expect(await flow.run() == nil)
        #expect(flow.phase == .failed(failure))
        #expect(await api.providerCredentials.isEmpty)
    }

    @Test func aRefusedTokenAndAnUnreachableServerGetTheirAlerts() async {
        let api = FakeAPI()
        await api.set(providerLogin: .failure(.providerTokenRefused(message: "The Facebook access token has expired.")))
        let refused = flow(FakeDeviceLogin(answers: [.approved(accessToken: "t")]), api: api)
        _ = await refused.run()
        #expect(refused.phase == .failed(.tokenRefused("The server did not accept the sign-in: The Facebook access token has expired.")))

        let down = FakeAPI()
        await down.set(providerLogin: .failure(.cannotReachServer(server: "127.0.0.1:1")))
        let unreachable = flow(FakeDeviceLogin(answers: [.approved(accessToken: "t")]), api: down)
        _ = await unreachable.run()
        // The same words as a password login that cannot reach the server.
        #expect(unreachable.phase.failureMessage == APIError.cannotReachServer(server: "127.0.0.1:1").userMessage)
    }

    @Test func cancellingStopsPollingAndLogsNobodyIn() async {
        let devices = FakeDeviceLogin(answers: [.pending, .pending, .approved(accessToken: "t")])
        let api = FakeAPI()
        let flow = DeviceLoginFlow(
            provider: FakeDeviceLogin.facebook, api: api, devices: devices, clock: TestClock().read,
            sleep: { _ in try await Task.sleep(for: .seconds(3600)) })
        let task = Task { await flow.run() }
        #expect(await eventually { flow.code != nil })
        flow.cancel()
        task.cancel()
        #expect(await task.value == nil)
        #expect(flow.phase == .cancelled)
        #expect(await api.providerCredentials.isEmpty)
        #expect(await devices.calls == ["code facebook"])
    }

    @Test func escEndsTheAppsFlowAtOnceEvenMidWait() async {
        var code = FakeDeviceLogin.sampleCode
        code.interval = 3600
        let app = AppViewModel(
            api: FakeAPI(), geocoder: FakeGeocoder(), opener: LinkOpener(environment: [:]), serverName: "test",
            clock: TestClock.fixed, devices: FakeDeviceLogin(code: .success(code), answers: [.pending]))
        app.login.deviceProviders = [FakeDeviceLogin.facebook]
        app.startFacebookLogin()
        #expect(await eventually { app.deviceLogin?.code != nil })
        let task = try? #require(app.deviceLoginTask)
        app.cancelDeviceLogin()
        let ended = Flag()
        Task { await task?.value; ended.set() }
        // The hour-long wait is cut short: the task ends within the budget, not after an hour.
        #expect(await eventually { ended.isSet })
        #expect(app.deviceLogin == nil && app.login.alert == nil)
    }

    @Test func aProviderThatCannotBeReachedIsReported() async {
        let flow = flow(FakeDeviceLogin(code: .failure(.cannotReachProvider(provider: "Facebook")), answers: []))
        _ = await flow.run()
        #expect(flow.phase == .failed(.provider("Cannot reach Facebook. Check the network and try again.")))
    }
}

extension DeviceLoginFlow.Phase {
    var failureMessage: String? {
        if case .failed(let failure) = self { return failure.message }
        return nil
    }
}

/// A flag set from one task and read from another.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
