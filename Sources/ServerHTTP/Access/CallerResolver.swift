import ClassRules
import Foundation
import HTTPTypes
import Hummingbird
import ServerConfig
import ServerSessions
import ServerStorage

/// Resolves a request's `Caller` once (Docs/Access.md): `Authorization: Bearer <id>` first, then
/// the `onthemap_session` cookie the login set, else `anonymous` (or `openWriter` under
/// `--open-writes`). A new way to identify a caller goes here, never into the rule.
package struct CallerResolver: Sendable {
    let configuration: ServerConfiguration
    let sessions: SessionAuthority

    package init(configuration: ServerConfiguration, sessions: SessionAuthority) {
        self.configuration = configuration
        self.sessions = sessions
    }

    /// The name of the session cookie.
    static let cookieName = "onthemap_session"

    /// The caller of a read: a credential that does not name a live session counts as none.
    func reader(_ request: Request) async throws -> Caller {
        if let token = request.bearerToken, let caller = try await account(sessionID: token) { return caller }
        if request.bearerToken == nil, let cookie = request.cookie(Self.cookieName),
            let caller = try await account(sessionID: cookie)
        {
            return caller
        }
        return Caller.withoutSession(openWrites: configuration.openWrites)
    }

    /// The caller of a write. A bearer token that names no live session is refused (209), so a
    /// client whose session ended hears so instead of writing as someone else. A
    /// cookie-authenticated POST must send `Content-Type: application/json` (the CSRF rule).
    func writer(_ request: Request) async throws -> Caller {
        if let token = request.bearerToken {
            guard let caller = try await account(sessionID: token) else { throw APIFailure.invalidSession() }
            return caller
        }
        if let cookie = request.cookie(Self.cookieName), let caller = try await account(sessionID: cookie) {
            if request.method == .post, !Self.isJSON(request.headers[.contentType]) {
                throw APIFailure.parse(
                    .forbidden, 209,
                    "A write authenticated by the session cookie must be sent with Content-Type: application/json.")
            }
            return caller
        }
        return Caller.withoutSession(openWrites: configuration.openWrites)
    }

    /// The account of a live session id, with its role; `nil` when there is none (or the account
    /// is gone or suspended).
    package func account(sessionID: String) async throws -> Caller? {
        try await session(id: sessionID)?.caller
    }

    /// The caller of a live session and when the session expires (seconds since 1970); nil for a
    /// session that is not live or whose account is suspended.
    package func session(id sessionID: String) async throws -> (caller: Caller, expiresAt: Double)? {
        try await sessions.caller(sessionID: sessionID)
    }

    /// `application/json`, with or without parameters (`; charset=utf-8`), in any case.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }
}

extension AccessRefusal {
    /// The wire answer: 209 (no session) or 119 (not allowed).
    var failure: APIFailure {
        switch self {
        case .needsSession: return APIFailure.invalidSession()
        case .forbidden(let message): return APIFailure.forbidden(message)
        }
    }
}
