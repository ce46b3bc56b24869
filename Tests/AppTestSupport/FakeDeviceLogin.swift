import APIClient
import Foundation

/// A scripted provider for device-login tests: one code, then the poll answers in order (the
/// last one repeats), recording every call.
public actor FakeDeviceLogin: DeviceLoginAPI {
    public var code: Result<DeviceCode, DeviceLoginError>
    public var answers: [Result<DevicePoll, DeviceLoginError>]
    public private(set) var calls: [String] = []

    public static let sampleCode = DeviceCode(
        deviceCode: "device-123", userCode: "WDJB-MJHT", verificationURL: URL(string: "https://example.com/device")!,
        expiresIn: 600, interval: 5)
    public static let facebook = DeviceLoginProvider(
        kind: .facebook(appID: "app", clientToken: "client"), deviceURL: URL(string: "https://graph.example/device/login")!,
        tokenURL: URL(string: "https://graph.example/device/login_status")!)

    public init(code: Result<DeviceCode, DeviceLoginError> = .success(FakeDeviceLogin.sampleCode), answers: [DevicePoll]) {
        self.code = code
        self.answers = answers.map { .success($0) }
    }

    public func set(answers: [Result<DevicePoll, DeviceLoginError>]) { self.answers = answers }

    public func requestCode(_ provider: DeviceLoginProvider) async throws(DeviceLoginError) -> DeviceCode {
        calls.append("code \(provider.name)")
        return try code.get()
    }

    public func poll(_ provider: DeviceLoginProvider, code: DeviceCode) async throws(DeviceLoginError) -> DevicePoll {
        calls.append("poll \(code.deviceCode)")
        let answer = answers.count > 1 ? answers.removeFirst() : answers.first ?? .success(.pending)
        return try answer.get()
    }
}

/// A `sleep` for flows under test: records each wait and moves `clock` by it at once.
public final class FakeSleeper: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Double] = []
    public let clock: TestClock

    public init(clock: TestClock = TestClock()) { self.clock = clock }

    /// The waits asked for, in order.
    public var waits: [Double] { lock.withLock { recorded } }

    public var sleep: @Sendable (Double) async throws -> Void {
        { [self] seconds in
            try Task.checkCancellation()
            lock.withLock { recorded.append(seconds) }
            clock.advance(seconds: seconds)
            await Task.yield()
        }
    }
}
