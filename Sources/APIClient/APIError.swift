import Foundation

/// Everything that can go wrong talking to the server, in words a UI can show.
public enum APIError: Error, Sendable, Equatable {
    /// Connection refused, no route, unknown host: nothing answered at `server`.
    case cannotReachServer(server: String)
    /// An `https://` server with which no secure connection could be made: its certificate was
    /// not accepted (not trusted, expired, for another name) or the TLS handshake failed.
    case insecureServer(server: String, detail: String)
    /// Something at `server`'s address answered, but not in HTTP (a TLS server asked over
    /// http://, another program on the port) or with a broken or cut-short answer; `detail` says
    /// which.
    case malformedAnswer(server: String, detail: String)
    /// The server took longer than the configured timeout.
    case timedOut(server: String)
    /// The answer was bigger than the client reads (`APIConfiguration.maxAnswerBytes`).
    case answerTooBig(server: String, maxBytes: Int)
    /// 403 from the session endpoint: wrong email or password.
    case invalidCredentials(message: String)
    /// 403 to a provider login: the server did not accept the provider's token (another app's,
    /// expired, invalid), with its message.
    case providerTokenRefused(message: String)
    /// Any other 4xx, with the server's own message.
    case refused(status: Int, message: String)
    /// 429: too many requests (logins, sign-ups) from this address; `retryAfter` is the server's
    /// `Retry-After` in seconds, when it sent one.
    case tooManyRequests(retryAfter: Int?, message: String)
    /// 403 to a sign-up with `"parameter":"invite"`: the server signs up by invitation and the code
    /// was missing, wrong, used up or expired.
    case inviteRejected(message: String)
    /// Any other 403 to a sign-up: the server takes no sign-ups (`--signup closed`).
    case signUpClosed(message: String)
    /// 403 with code 119 (Docs/Access.md): the account may not do this — it already has the most
    /// rows one account may have, or the row is not its own, or only moderators may. `message` is
    /// the server's sentence.
    case notAllowed(message: String)
    /// 429 with code 155: too many changes (posts, updates, deletes) from this account in a minute;
    /// `retryAfter` is the server's `Retry-After` in seconds.
    case tooManyChanges(retryAfter: Int?, message: String)
    /// 5xx.
    case serverError(status: Int, message: String)
    /// The answer was not what the contract says (not JSON, missing fields).
    case unreadableResponse(detail: String)
    /// An action that needs a logged-in user was tried without one.
    case notLoggedIn

    /// One sentence a user can act on.
    public var userMessage: String {
        switch self {
        case .cannotReachServer(let server):
            return "Cannot reach the server at \(server). Check that it is running and the address is right."
        case .insecureServer(let server, let detail):
            return "No secure connection to the server at \(server) (\(detail)). Check the address; "
                + "a server whose certificate your system does not trust needs its operator's CA installed."
        case .malformedAnswer(let server, let detail):
            return "The server at \(server) did not answer as an HTTP server should (\(detail)). "
                + "Check the address: it may be another program's, or need https://."
        case .timedOut(let server):
            return "The server at \(server) did not answer in time. Try again."
        case .answerTooBig(let server, let maxBytes):
            return "The server at \(server) sent an answer bigger than \(maxBytes / 1_048_576) MB; reading stopped there."
        case .invalidCredentials:
            return "Wrong email or password."
        case .providerTokenRefused(let message):
            return "The server did not accept the sign-in: \(message)"
        case .refused(_, let message):
            return "The server refused the request: \(message)"
        case .tooManyRequests(let retryAfter, _):
            return "Too many requests; the server is holding them back. Try again \(RetryDelay.text(retryAfter))."
        case .inviteRejected(let message):
            return "This server signs people up by invitation; the invite code was not accepted: \(message)"
        case .signUpClosed:
            return "This server does not take sign-ups. Ask its operator for an account, then log in."
        case .notAllowed(let message):
            return Self.sentence(message) ?? "This account may not do that."
        case .tooManyChanges(let retryAfter, let message):
            return Self.sentence(message)
                ?? "Too many changes from this account. Try again \(RetryDelay.text(retryAfter))."
        case .serverError(let status, let message):
            return message.isEmpty ? "The server failed (HTTP \(status)). Try again later." : "The server failed (HTTP \(status)): \(message)"
        case .unreadableResponse:
            return "The server sent an answer this app cannot read."
        case .notLoggedIn:
            return "You are not logged in."
        }
    }

    /// The server's message as one sentence (trimmed, a full stop added), or nil when it is empty
    /// or too long to be one; the fair-share refusals are written as sentences to be shown whole.
    static func sentence(_ message: String) -> String? {
        let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= 300 else { return nil }
        guard let last = text.last, !".!?".contains(last) else { return text }
        return text + "."
    }
}

extension APIError: CustomStringConvertible {
    /// Debug detail for logs; `userMessage` is what a user sees.
    public var description: String {
        switch self {
        case .unreadableResponse(let detail): return "unreadable response: \(detail)"
        case .invalidCredentials(let message): return "invalid credentials: \(message)"
        case .refused(let status, let message): return "HTTP \(status): \(message)"
        case .providerTokenRefused(let message): return "HTTP 403 (provider token): \(message)"
        case .tooManyRequests(let retryAfter, let message):
            return "HTTP 429 (Retry-After: \(retryAfter.map(String.init) ?? "none")): \(message)"
        case .inviteRejected(let message): return "HTTP 403 (invite): \(message)"
        case .signUpClosed(let message): return "HTTP 403 (sign-up closed): \(message)"
        case .notAllowed(let message): return "HTTP 403 (code 119): \(message)"
        case .tooManyChanges(let retryAfter, let message):
            return "HTTP 429 (code 155, Retry-After: \(retryAfter.map(String.init) ?? "none")): \(message)"
        case .serverError(let status, let message): return "HTTP \(status): \(message)"
        default: return userMessage
        }
    }
}
