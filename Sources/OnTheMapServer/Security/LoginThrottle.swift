import Foundation
import HTTPTypes
import Hummingbird

/// The failed-login throttle: asks storage whether a login may be tried, and records outcomes.
struct LoginThrottle: Sendable {
    let storage: any ServerStorage
    let policy: LoginThrottlePolicy

    /// The subjects a login for `email` from `address` is counted against.
    func subjects(email: String, address: String?) -> [ThrottleSubject] {
        var subjects = [ThrottleSubject(key: "email:" + email.lowercased(), limit: policy.failuresPerAccount)]
        if let address, !address.isEmpty {
            subjects.append(ThrottleSubject(key: "address:" + address, limit: policy.failuresPerAddress))
        }
        return subjects
    }

    /// Throws 429 with `Retry-After` when any subject is blocked now.
    func check(_ subjects: [ThrottleSubject], now: Date = Date()) async throws {
        let time = now.timeIntervalSince1970
        guard let until = try await storage.loginBlockedUntil(subjects: subjects.map(\.key), now: time) else { return }
        throw Self.tooManyFailures(retryAfter: until - time)
    }

    /// Counts a failed login against every subject.
    func recordFailure(_ subjects: [ThrottleSubject], now: Date = Date()) async throws {
        try await storage.recordLoginFailure(
            subjects: subjects, now: now.timeIntervalSince1970, window: policy.windowSeconds, block: policy.blockSeconds)
    }

    /// Clears the account's count after a good login.
    func recordSuccess(email: String) async throws {
        try await storage.clearLoginFailures(subject: "email:" + email.lowercased())
    }

    /// 429, prefixed Udacity style, with whole seconds in `Retry-After` and in the message.
    static func tooManyFailures(retryAfter seconds: Double) -> APIFailure {
        let whole = max(1, Int(seconds.rounded(.up)))
        var failure = APIFailure.udacity(.tooManyRequests, "Too many failed logins. Try again in \(whole) seconds.")
        failure.headers[.retryAfter] = String(whole)
        return failure
    }
}

extension AppRequestContext {
    /// The client's address: the last `X-Forwarded-For` entry when `trustProxy` (the one the
    /// proxy itself appended), else the socket's peer.
    func clientAddress(_ request: Request, trustProxy: Bool) -> String? {
        if trustProxy, let forwarded = request.headers[values: .xForwardedFor].last {
            let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) ?? ""
            if !last.isEmpty, last.utf8.count <= 64 { return last }
        }
        return remoteAddress?.ipAddress
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
