import Foundation
import HTTPTypes
import Hummingbird
import OnTheMapModels
import ServerConfig
import ServerSessions
import ServerStorage

/// The Udacity-style session and users endpoints, every answer behind the `)]}'` prefix.
package struct SessionController: Sendable {
    let storage: any ServerStorage
    let configuration: ServerConfiguration
    let sessions: SessionAuthority
    let throttle: LoginThrottle
    let providerLogin: ProviderLogin

    package init(
        storage: any ServerStorage, configuration: ServerConfiguration, sessions: SessionAuthority, throttle: LoginThrottle,
        providerLogin: ProviderLogin
    ) {
        self.storage = storage
        self.configuration = configuration
        self.sessions = sessions
        self.throttle = throttle
        self.providerLogin = providerLogin
    }
    var signUps: SignUpController {
        SignUpController(configuration: configuration, sessions: sessions, throttle: throttle, respond: { try await sessionResponse(for: $0, status: $1) })
    }

    /// Registers the routes under `paths` (`.v1` flat users, `.api` wrapped users).
    package func register(on router: Router<AppRequestContext>, paths: RequestPath.Accounts, wrapsUser: Bool) {
        router.post(RouterPath(paths.session)) { request, context in
            try await logIn(request, address: context.clientAddress(request, trustProxy: configuration.trustProxy))
        }
        router.delete(RouterPath(paths.session)) { request, _ in try await logOut(request) }
        router.post(RouterPath(paths.users)) { request, context in
            try await signUps.signUp(request, address: context.clientAddress(request, trustProxy: configuration.trustProxy))
        }
        router.get(RouterPath(paths.authProviders)) { _, _ in
            JSONResponse.make(AuthProviders.offered(by: configuration), prefixed: true)
        }
        router.get(RouterPath(paths.user(":key"))) { request, context in
            try await user(request, key: try context.parameters.require("key"), wrapped: wrapsUser)
        }
    }

    /// Logs in, unless this client has too many recent attempts (`LoginThrottlePolicy`): the
    /// attempt is counted before the password is checked, and over a limit the answer is 429
    /// without checking it (so a right password is refused too while blocked).
    private func logIn(_ request: Request, address: String?) async throws -> Response {
        var request = request
        let body = try await request.jsonBody(
            limit: configuration.maxBodyBytes, invalid: .udacity(.badRequest, "The request body is not valid JSON."))
        guard case .object(let fields) = body else {
            throw APIFailure.udacity(.badRequest, "Did not specify exactly one credential.")
        }
        let credentials = ["udacity", "facebook_mobile", "oauth"].filter { fields[$0] != nil }
        guard credentials.count == 1 else { throw APIFailure.udacity(.badRequest, "Did not specify exactly one credential.") }
        // A NUL is refused before any store or hash sees it (SQLite would end the text there).
        guard !CredentialText.hasNUL(fields[credentials[0]]) else {
            throw APIFailure.udacity(.badRequest, "A credential must not contain a NUL character.")
        }
        // The session cookie only for a JSON body: a cross-site form (which can send only
        // text/plain, form or multipart bodies without a preflight) must not log a visitor in.
        let cookie = CallerResolver.isJSON(request.headers[.contentType]) ? SessionCookie(request, configuration) : nil
        guard credentials[0] == "udacity" else {
            let account = try await providerLogin.account(credential: credentials[0], fields: fields[credentials[0]], address: address)
            return try await sessionResponse(for: account, status: .ok, cookie: cookie)
        }
        guard case .string(let username) = fields["udacity"]?["username"] else {
            throw APIFailure.udacity(.badRequest, "trails.Error 400: Missing parameter 'username'", parameter: "udacity.username")
        }
        guard case .string(let password) = fields["udacity"]?["password"] else {
            throw APIFailure.udacity(.badRequest, "trails.Error 400: Missing parameter 'password'", parameter: "udacity.password")
        }
        guard username.utf8.count <= 254, password.utf8.count <= 1024 else {
            throw APIFailure.udacity(.forbidden, "Account not found or invalid credentials.")
        }
        // Found before counting (no hash yet) so that attempts count against the account itself.
        let known = try await storage.account(email: username)
        let admission = try await throttle.admitLogin(account: known, email: username, address: address)
        guard let account = try await sessions.verify(account: known, password: password) else {
            throw APIFailure.udacity(.forbidden, "Account not found or invalid credentials.")
        }
        try await throttle.loginSucceeded(admission)
        return try await sessionResponse(for: account, status: .ok, cookie: cookie)
    }

    /// A new session's answer; with `cookie`, it also sets the session cookie (Docs/Access.md).
    func sessionResponse(for account: Account, status: HTTPResponse.Status, cookie: SessionCookie? = nil) async throws -> Response {
        // A suspended account never has a session (Docs/Access.md), whichever way it logs in.
        if account.suspendedAt != nil {
            throw APIFailure.udacity(.forbidden, "This account is suspended. Ask the class's moderator.")
        }
        let session = try await sessions.openSession(for: account)
        var headers = HTTPFields()
        headers[.setCookie] = "XSRF-TOKEN=\(session.xsrfToken ?? ""); Path=/; SameSite=Lax"
        if let cookie { headers.append(HTTPField(name: .setCookie, value: cookie.set(session.id))) }
        let expiration = WireDate.microsecondString(from: Date(timeIntervalSince1970: session.expiresAt))
        return JSONResponse.make(
            status: status,
            SessionResponse(
                account: .init(registered: true, key: account.key), session: .init(id: session.id, expiration: expiration)),
            prefixed: true, headers: headers)
    }

    /// Logs out the session named by a bearer token, or by the XSRF cookie when the
    /// `X-XSRF-TOKEN` header repeats it (what the original clients send).
    private func logOut(_ request: Request) async throws -> Response {
        var session: IssuedSession?
        if let token = request.bearerToken {
            session = try await sessions.session(id: token)
        }
        if session == nil, request.bearerToken == nil, let cookie = request.cookie(CallerResolver.cookieName) {
            session = try await sessions.session(id: cookie)
        }
        if session == nil {
            guard let header = request.headers[.xsrfToken], let cookie = request.cookie("XSRF-TOKEN") else {
                throw APIFailure.udacity(.forbidden, "No session: send the XSRF-TOKEN cookie and the X-XSRF-TOKEN header.")
            }
            guard header == cookie else { throw APIFailure.udacity(.forbidden, "The X-XSRF-TOKEN header does not match the cookie.") }
            session = try await sessions.session(xsrfToken: cookie)
        }
        guard let session else { throw APIFailure.udacity(.forbidden, "No such session, or it has expired.") }
        try await sessions.endSession(id: session.id)
        var headers = HTTPFields()
        headers[.setCookie] = "XSRF-TOKEN=; Path=/; Max-Age=0; SameSite=Lax"
        headers.append(HTTPField(name: .setCookie, value: SessionCookie(request, configuration).clear))
        let expiration = WireDate.microsecondString(from: Date(timeIntervalSince1970: session.expiresAt))
        return JSONResponse.make(
            DeleteSessionResponse(session: .init(id: session.id, expiration: expiration)), prefixed: true, headers: headers)
    }

    /// Public data of a user; the email only to that user's own session.
    private func user(_ request: Request, key: String, wrapped: Bool) async throws -> Response {
        guard let account = try await storage.account(key: key) else {
            throw APIFailure.udacity(.notFound, "User not found.")
        }
        var user = PublicUser(key: account.key, firstName: account.firstName, lastName: account.lastName, nickname: account.firstName)
        let caller = try await CallerResolver(configuration: configuration, sessions: sessions).reader(request)
        if caller.accountKey == key {
            user.email = .init(address: account.email, verified: true)
            user.role = account.role.rawValue
        }
        return wrapped ? JSONResponse.make(WrappedPublicUser(user: user), prefixed: true) : JSONResponse.make(user, prefixed: true)
    }
}

/// The `onthemap_session` cookie a login sets (Docs/Access.md): HttpOnly, SameSite=Strict, and
/// Secure when the request came over TLS (`--trust-proxy` and `X-Forwarded-Proto: https`).
struct SessionCookie: Sendable {
    var secure: Bool

    init(_ request: Request, _ configuration: ServerConfiguration) {
        secure = configuration.trustProxy && request.headers[.forwardedProto]?.lowercased() == "https"
    }

    private var attributes: String { "Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "") }

    func set(_ sessionID: String) -> String { "\(CallerResolver.cookieName)=\(sessionID); \(attributes)" }

    var clear: String { "\(CallerResolver.cookieName)=; Max-Age=0; \(attributes)" }
}

extension HTTPField.Name {
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
}
