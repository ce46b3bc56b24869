import Foundation
import ServerConfig
import ServerHTTP
import StandIn
import OnTheMapServer

/// Facebook's Graph API and an RFC 8628 provider on one loopback `StandInServer`, scripted:
/// `/graph/device/login`, `/graph/device/login_status`, `/graph/debug_token`, `/graph/me`;
/// `/oauth/device/code`, `/oauth/token`, `/oauth/user` (an OpenID-Connect-like userinfo that
/// names no audience), and the three audience checks: GitHub's `/oauth/applications/{id}/token`,
/// RFC 7662 `/oauth/introspect`, Google-like `/oauth/tokeninfo`. Tokens are issued with `issueToken`
/// (for this app or another, live or expired); the device flows answer pending, slow down,
/// approved, denied or expired as `script` says.
public final class ProviderStandIn: @unchecked Sendable {
    /// A person the providers know.
    public struct Person: Sendable, Hashable {
        public var id: String
        public var firstName: String
        public var lastName: String

        public init(id: String, firstName: String, lastName: String) {
            self.id = id
            self.firstName = firstName
            self.lastName = lastName
        }
    }

    /// How a device flow ends after its pending polls.
    public enum Outcome: Sendable { case approve(Person), deny, expire }

    public let appID = "stand-in-app"
    public let clientToken = "stand-in-client-token"
    public let appSecret = "stand-in-app-secret"
    public let oauthClientID = "stand-in-client"
    public let oauthClientSecret = "stand-in-client-secret"
    public static let ada = Person(id: "100200300", firstName: "Ada", lastName: "Lovelace")

    private struct Token { var person: Person; var app: String; var expiresAt: Double }
    private let lock = NSLock()
    private var tokens: [String: Token] = [:]
    private var pending = 0
    private var slowDowns: Set<Int> = []
    private var outcome = Outcome.approve(ProviderStandIn.ada)
    private var polls = 0
    private var interval = 1
    private var server: StandInServer!

    public init() throws {
        server = try StandInServer { [unowned self] request in self.answer(request) }
    }

    public func stop() { server.stop() }

    /// Every request so far.
    public var requests: [StandInServer.Request] { server.requests }
    /// Polls of either token endpoint so far.
    public var pollCount: Int { lock.withLock { polls } }

    public var graphURL: URL { server.baseURL.appendingPathComponent("graph") }
    public var facebook: FacebookSettings {
        FacebookSettings(appID: appID, clientToken: clientToken, appSecret: appSecret, graphURL: graphURL)
    }
    /// The audience checks the stand-in answers.
    public enum Check: String, Sendable, CaseIterable { case github, introspection, tokeninfo }

    public func oauth(name: String = "github", check: Check = .github) -> OAuthProviderSettings {
        let base = server.baseURL.appendingPathComponent("oauth")
        let audienceCheck: OAuthAudienceCheck =
            switch check {
            case .github: .github(apiURL: base, clientSecret: oauthClientSecret)
            case .introspection: .introspection(url: base.appendingPathComponent("introspect"), clientSecret: oauthClientSecret)
            case .tokeninfo: .tokeninfo(url: base.appendingPathComponent("tokeninfo"))
            }
        return OAuthProviderSettings(
            name: name, clientID: oauthClientID, deviceURL: base.appendingPathComponent("device/code"),
            tokenURL: base.appendingPathComponent("token"), userinfoURL: base.appendingPathComponent("user"), scope: "read:user",
            audienceCheck: audienceCheck)
    }

    /// A token for `person`, issued to `app` (default this app), expiring `expiresIn` seconds from now.
    public func issueToken(for person: Person = ProviderStandIn.ada, app: String? = nil, expiresIn: Double = 3600) -> String {
        let token = "tok-" + UUID().uuidString
        lock.withLock { tokens[token] = Token(person: person, app: app ?? appID, expiresAt: Date().timeIntervalSince1970 + expiresIn) }
        return token
    }

    /// The next device flows: `pending` polls answered "pending" (those numbered in `slowDownAt`,
    /// from 1, answered "slow down" instead), then `outcome`. Polls are counted afresh.
    public func script(pending: Int, slowDownAt: Set<Int> = [], outcome: Outcome, interval: Int = 1) {
        lock.withLock {
            self.pending = pending
            self.slowDowns = slowDownAt
            self.outcome = outcome
            self.polls = 0
            self.interval = interval
        }
    }

    private func answer(_ request: StandInServer.Request) -> StandInServer.Response {
        let path = request.target.split(separator: "?").first.map(String.init) ?? ""
        let query = Self.query(request.target).merging(Self.query("?" + String(decoding: request.body, as: UTF8.self))) { a, _ in a }
        let now = Date().timeIntervalSince1970
        switch path {
        case "/graph/device/login", "/oauth/device/code":
            let interval = lock.withLock { self.interval }
            let code = path.hasPrefix("/graph") ? "code" : "device_code"
            return json(200, [code: "device-123", "user_code": "WDJB-MJHT", "verification_uri": "https://example.com/device",
                              "expires_in": 600, "interval": interval])
        case "/graph/device/login_status", "/oauth/token":
            return poll(graph: path.hasPrefix("/graph"))
        case "/graph/debug_token":
            guard query["access_token"] == appID + "|" + appSecret else { return graphError(400, code: 190, subcode: nil, "Invalid app token") }
            guard let token = lock.withLock({ tokens[query["input_token"] ?? ""] }) else {
                return graphError(400, code: 190, subcode: nil, "Invalid OAuth access token.")
            }
            return json(200, ["data": ["app_id": token.app, "user_id": token.person.id, "is_valid": token.expiresAt > now,
                                       "expires_at": Int(token.expiresAt)]])
        case "/graph/me":
            guard let token = lock.withLock({ tokens[query["access_token"] ?? ""] }), token.expiresAt > now else {
                return graphError(400, code: 190, subcode: 463, "Error validating access token.")
            }
            return json(200, ["id": token.person.id, "first_name": token.person.firstName, "last_name": token.person.lastName])
        case "/oauth/user":
            let bearer = (request.headers["authorization"] ?? "").replacingOccurrences(of: "Bearer ", with: "")
            guard let token = lock.withLock({ tokens[bearer] }) else {
                return StandInServer.Response(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#], #"{"message":"Bad credentials"}"#)
            }
            guard token.expiresAt > now else {
                return StandInServer.Response(
                    status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token", error_description="The access token expired""#],
                    #"{"message":"Bad credentials"}"#)
            }
            // Like an OpenID Connect userinfo answer: who, but not for which app.
            return StandInServer.Response(
                status: 200,
                Self.encode(["id": Int(token.person.id) ?? 0, "login": "ada", "name": token.person.firstName + " " + token.person.lastName]))
        case "/oauth/applications/\(oauthClientID)/token":
            let basic = "Basic " + Data((oauthClientID + ":" + oauthClientSecret).utf8).base64EncodedString()
            guard request.method == "POST", request.headers["authorization"] == basic else { return json(401, ["message": "Requires authentication"]) }
            let sent = (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any])?["access_token"] as? String
            guard let sent, let token = lock.withLock({ tokens[sent] }), token.app == appID, token.expiresAt > now else {
                return json(404, ["message": "Not Found"])
            }
            return json(200, ["id": 1, "user": ["id": Int(token.person.id) ?? 0, "login": "ada"]])
        case "/oauth/introspect":
            let basic = "Basic " + Data((oauthClientID + ":" + oauthClientSecret).utf8).base64EncodedString()
            guard request.method == "POST", request.headers["authorization"] == basic else { return json(401, ["error": "invalid_client"]) }
            guard let token = lock.withLock({ tokens[query["token"] ?? ""] }), token.expiresAt > now else { return json(200, ["active": false]) }
            return json(200, ["active": true, "client_id": token.app == appID ? oauthClientID : token.app, "sub": token.person.id])
        case "/oauth/tokeninfo":
            guard let token = lock.withLock({ tokens[query["access_token"] ?? ""] }), token.expiresAt > now else {
                return json(400, ["error": "invalid_token"])
            }
            return json(200, ["aud": token.app == appID ? oauthClientID : token.app, "sub": token.person.id])
        default:
            return json(404, ["error": "not found"])
        }
    }

    private func poll(graph: Bool) -> StandInServer.Response {
        let (number, pending, slow, outcome) = lock.withLock { () -> (Int, Int, Bool, Outcome) in
            polls += 1
            return (polls, self.pending, slowDowns.contains(polls), self.outcome)
        }
        if number <= pending {
            if graph { return slow ? graphError(400, code: 31, subcode: 1349172, "Slow down") : graphError(400, code: 31, subcode: 1349174, "Pending") }
            return json(400, ["error": slow ? "slow_down" : "authorization_pending"])
        }
        switch outcome {
        case .approve(let person):
            let token = issueToken(for: person)
            return json(200, graph ? ["access_token": token, "expires_in": 5_183_944] : ["access_token": token, "token_type": "bearer"])
        case .deny:
            return graph ? graphError(400, code: 200, subcode: nil, "The user denied the request.") : json(400, ["error": "access_denied"])
        case .expire:
            return graph ? graphError(400, code: 31, subcode: 1349152, "Expired") : json(400, ["error": "expired_token"])
        }
    }

    private func graphError(_ status: Int, code: Int, subcode: Int?, _ message: String) -> StandInServer.Response {
        var error: [String: Any] = ["message": message, "type": "OAuthException", "code": code]
        if let subcode { error["error_subcode"] = subcode }
        return json(status, ["error": error])
    }

    private func json(_ status: Int, _ object: [String: Any]) -> StandInServer.Response {
        StandInServer.Response(status: status, Self.encode(object))
    }

    private static func encode(_ object: [String: Any]) -> String {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private static func query(_ target: String) -> [String: String] {
        guard let components = URLComponents(string: "http://x/" + (target.hasPrefix("/") ? String(target.dropFirst()) : target)) else { return [:] }
        var fields: [String: String] = [:]
        for item in components.queryItems ?? [] { fields[item.name] = item.value ?? "" }
        return fields
    }
}
