import Foundation

/// Everything that can go wrong talking to the server, in words a UI can show.
public enum APIError: Error, Sendable, Equatable {
    /// Connection refused, no route, unknown host: nothing answered at `server`.
    case cannotReachServer(server: String)
    /// The server took longer than the configured timeout.
    case timedOut(server: String)
    /// 403 from the session endpoint: wrong email or password.
    case invalidCredentials(message: String)
    /// Any other 4xx, with the server's own message.
    case refused(status: Int, message: String)
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
        case .timedOut(let server):
            return "The server at \(server) did not answer in time. Try again."
        case .invalidCredentials:
            return "Wrong email or password."
        case .refused(_, let message):
            return "The server refused the request: \(message)"
        case .serverError(let status, let message):
            return message.isEmpty ? "The server failed (HTTP \(status)). Try again later." : "The server failed (HTTP \(status)): \(message)"
        case .unreadableResponse:
            return "The server sent an answer this app cannot read."
        case .notLoggedIn:
            return "You are not logged in."
        }
    }
}

extension APIError: CustomStringConvertible {
    /// Debug detail for logs; `userMessage` is what a user sees.
    public var description: String {
        switch self {
        case .unreadableResponse(let detail): return "unreadable response: \(detail)"
        case .invalidCredentials(let message): return "invalid credentials: \(message)"
        case .refused(let status, let message): return "HTTP \(status): \(message)"
        case .serverError(let status, let message): return "HTTP \(status): \(message)"
        default: return userMessage
        }
    }
}
