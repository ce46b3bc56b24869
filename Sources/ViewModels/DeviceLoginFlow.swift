import APIClient
import Foundation
import Observation
import OnTheMapModels

/// One device login (Facebook Login for Devices, or RFC 8628) as a state machine: ask the provider
/// for a code, show it, poll at the provider's interval (5 s more after each "slow down") until
/// approved, denied or expired, then log in to the onthemap server with the token. The token
/// lives only in `run()`'s locals: never stored, never written to disk.
@MainActor
@Observable
public final class DeviceLoginFlow {
    public enum Phase: Sendable, Equatable {
        case requestingCode
        /// The code is on screen; polling.
        case waiting(DeviceCode)
        /// Approved: the server is checking the token.
        case loggingIn
        case finished(UserSession)
        case failed(DeviceLoginFailure)
        case cancelled
    }

    public let provider: DeviceLoginProvider
    public private(set) var phase: Phase = .requestingCode
    /// Seconds between polls now (the provider's, plus 5 per "slow down").
    public private(set) var interval: Double = 5
    /// When the code stops working.
    public private(set) var expiresAt: Date?
    /// Polls sent so far.
    public private(set) var polls = 0
    /// A line for the person under the code (no browser could be started, say).
    public var note: String?
    /// Called once the code is known (the CLI prints it; the app draws it from `phase`).
    @ObservationIgnored public var onCode: (@MainActor (DeviceCode) -> Void)?

    let api: any OnTheMapAPI
    let devices: any DeviceLoginAPI
    let clock: @Sendable () -> Date
    let sleep: @Sendable (Double) async throws -> Void

    /// - Parameters:
    ///   - sleep: waits that many seconds, throwing when cancelled (tests pass one that moves a fake clock).
    public init(
        provider: DeviceLoginProvider, api: any OnTheMapAPI, devices: any DeviceLoginAPI,
        clock: @escaping @Sendable () -> Date = Date.init,
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .milliseconds(Int64($0 * 1000))) }
    ) {
        self.provider = provider
        self.api = api
        self.devices = devices
        self.clock = clock
        self.sleep = sleep
    }

    /// The code while it is on screen.
    public var code: DeviceCode? {
        if case .waiting(let code) = phase { return code }
        return nil
    }

    /// Whole seconds until the code expires (0 when past or unknown).
    public var remainingSeconds: Int {
        guard let expiresAt else { return 0 }
        return max(0, Int(expiresAt.timeIntervalSince(clock()).rounded(.up)))
    }

    /// Whether the flow has ended (logged in, failed or cancelled).
    public var isOver: Bool {
        switch phase {
        case .finished, .failed, .cancelled: true
        default: false
        }
    }

    /// Stops polling at once (Esc); the task running `run()` ends without logging in.
    public func cancel() {
        if !isOver { phase = .cancelled }
    }

    /// Runs the whole flow; the session when it logged in, else `nil` (see `phase`).
    public func run() async -> UserSession? {
        let code: DeviceCode
        do throws(DeviceLoginError) {
            code = try await devices.requestCode(provider)
        } catch {
            return fail(.provider(error.userMessage))
        }
        guard !isOver else { return nil }
        interval = code.interval
        expiresAt = clock().addingTimeInterval(code.expiresIn)
        phase = .waiting(code)
        onCode?(code)
        while true {
            do {
                try await sleep(interval)
            } catch {
                cancel()
                return nil
            }
            guard !isOver else { return nil }
            if remainingSeconds <= 0 { return fail(.expired) }
            let answer: DevicePoll
            do throws(DeviceLoginError) {
                polls += 1
                answer = try await devices.poll(provider, code: code)
            } catch {
                return fail(.provider(error.userMessage))
            }
            guard !isOver else { return nil }
            switch answer {
            case .pending: continue
            case .slowDown: interval += 5
            case .denied: return fail(.denied(provider: provider.displayName))
            case .expired: return fail(.expired)
            case .approved(let token):
                return await logIn(provider.credential(accessToken: token))
            }
        }
    }

    private func logIn(_ credential: ProviderCredential) async -> UserSession? {
        phase = .loggingIn
        do throws(APIError) {
            let session = try await api.logIn(with: credential)
            guard !isOver else { return nil }
            phase = .finished(session)
            return session
        } catch {
            if case .providerTokenRefused = error { return fail(.tokenRefused(error.userMessage)) }
            return fail(.server(error))
        }
    }

    private func fail(_ failure: DeviceLoginFailure) -> UserSession? {
        if !isOver { phase = .failed(failure) }
        return nil
    }
}

/// Why a device login ended without a session; each has its own alert.
public enum DeviceLoginFailure: Sendable, Equatable {
    /// The person said no at the provider.
    case denied(provider: String)
    /// The code ran out before it was entered.
    case expired
    /// The onthemap server did not accept the provider's token (its message).
    case tokenRefused(String)
    /// The onthemap server could not be reached or failed: the same alert as for a password login.
    case server(APIError)
    /// The provider could not be reached or refused for another reason.
    case provider(String)

    /// The alert text.
    public var message: String {
        switch self {
        case .denied(let provider): return "The \(provider) login was declined. Start again to try once more."
        case .expired: return "The code expired before the login was approved. Start again for a new code."
        case .tokenRefused(let message): return message
        case .server(let error): return error.userMessage
        case .provider(let message): return message
        }
    }
}
