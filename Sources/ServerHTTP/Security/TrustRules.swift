import Foundation
import HTTPTypes
import Hummingbird
import OnTheMapModels

/// The request-wide trust rules (Docs/Security.md, "Trust rules"), applied to every request
/// before its route by the server's one middleware (`RequestRulesMiddleware`):
///
/// - A request that carries an `X-XSRF-TOKEN` header must carry the same value in its
///   `XSRF-TOKEN` cookie; otherwise it is refused 403 whatever else identifies it (a bearer token,
///   the session cookie). The original clients send the two together, or neither.
/// - Every answer is marked `Cache-Control: private` and `Vary: Authorization, Cookie`: the
///   server resolves the caller from those headers, and what it answers (which rows, a user's
///   e-mail, a session) depends on them, so no shared cache may hand one caller's answer to another.
package enum TrustRules {
    /// Throws the 403 of a request whose `X-XSRF-TOKEN` header does not match its `XSRF-TOKEN`
    /// cookie (or that has the header and no cookie).
    package static func checkXSRF(_ request: Request) throws {
        guard let header = request.headers[.xsrfToken] else { return }
        guard let cookie = request.cookie("XSRF-TOKEN"), ConstantTime.equal(header, cookie) else {
            throw xsrfMismatch(path: request.uri.path)
        }
    }

    /// `Cache-Control: private` (replacing any public caching the route chose) and
    /// `Vary: Authorization, Cookie`: every answer may depend on the caller, since the caller is
    /// resolved from those headers (an anonymous answer differs from a moderator's).
    package static func markPersonal(_ headers: inout HTTPFields) {
        set(privateCaching, in: &headers)
        set(varyOnCaller, in: &headers)
    }

    /// The two fields, checked once: an `HTTPField` made from a string validates its value.
    private static let privateCaching = HTTPField(name: .cacheControl, value: "private")
    private static let varyOnCaller = HTTPField(name: .vary, value: "Authorization, Cookie")

    /// `headers[field.name] = field.value`: appended when the answer has no such field (most
    /// answers), replacing every field of that name otherwise.
    private static func set(_ field: HTTPField, in headers: inout HTTPFields) {
        if headers.contains(field.name) {
            headers[field.name] = field.value
        } else {
            headers.append(field)
        }
    }

    /// The refusal, in the style of the path's family (the session API's is prefixed).
    static func xsrfMismatch(path: String) -> APIFailure {
        let message = "The X-XSRF-TOKEN header does not match the XSRF-TOKEN cookie."
        let accounts = [RequestPath.Accounts.v1, .api].contains { path.hasPrefix($0.session) || path.hasPrefix($0.users) }
        return accounts ? .udacity(.forbidden, message) : .parse(.forbidden, 119, message)
    }
}

/// A credential (an e-mail, a password, a token) with a NUL in it is refused 400 before it
/// reaches a store: SQLite's C strings end at a NUL (so `ada@x\0junk` was `ada@x`), PostgreSQL
/// refuses it (500), and bcrypt stops at it.
enum CredentialText {
    static func hasNUL(_ text: String) -> Bool { text.utf8.contains(0) }

    /// Whether any string in `value` (an object of credential fields) holds a NUL.
    static func hasNUL(_ value: JSONValue?) -> Bool {
        switch value {
        case .string(let text): return hasNUL(text)
        case .object(let fields): return fields.values.contains { hasNUL($0) }
        case .array(let items): return items.contains { hasNUL($0) }
        default: return false
        }
    }
}
