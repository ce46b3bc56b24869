import Foundation

/// A device code: what the person types (`userCode`) where (`verificationURL`), and how the app polls.
public struct DeviceCode: Sendable, Hashable {
    /// Sent back with each poll (`code` for Facebook, `device_code` for RFC 8628).
    public var deviceCode: String
    /// Short, printable ASCII (checked when read).
    public var userCode: String
    public var verificationURL: URL
    /// The URL with the code in it, when the provider gives one (`verification_uri_complete`).
    public var completeURL: URL?
    /// Seconds from the answer until the code expires.
    public var expiresIn: Double
    /// Seconds between polls.
    public var interval: Double

    public init(
        deviceCode: String, userCode: String, verificationURL: URL, completeURL: URL? = nil, expiresIn: Double, interval: Double
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURL = verificationURL
        self.completeURL = completeURL
        self.expiresIn = expiresIn
        self.interval = interval
    }

    /// What the QR code carries and the opener opens: the complete URL when there is one.
    public var urlToOpen: URL { completeURL ?? verificationURL }
}

/// One poll's answer.
public enum DevicePoll: Sendable, Hashable {
    /// Not yet: ask again after the interval.
    case pending
    /// Too fast: add 5 seconds to the interval (RFC 8628 §3.5).
    case slowDown
    case approved(accessToken: String)
    case denied
    case expired
}

/// What went wrong talking to a provider (not to the onthemap server).
public enum DeviceLoginError: Error, Sendable, Equatable {
    /// Nothing answered, or not in time.
    case cannotReachProvider(provider: String)
    /// The provider said no for another reason than denied or expired (a wrong client id…).
    case refused(provider: String, message: String)
    /// The answer was not what the protocol says.
    case unreadable(provider: String)

    /// One sentence a user can act on.
    public var userMessage: String {
        switch self {
        case .cannotReachProvider(let provider): return "Cannot reach \(provider). Check the network and try again."
        case .refused(let provider, let message): return "\(provider) refused the login: \(message)"
        case .unreadable(let provider): return "\(provider) sent an answer this app cannot read."
        }
    }
}

/// The provider side of a device login: a code, then polls. `DeviceLoginClient` is the live one.
public protocol DeviceLoginAPI: Sendable {
    func requestCode(_ provider: DeviceLoginProvider) async throws(DeviceLoginError) -> DeviceCode
    func poll(_ provider: DeviceLoginProvider, code: DeviceCode) async throws(DeviceLoginError) -> DevicePoll
}
