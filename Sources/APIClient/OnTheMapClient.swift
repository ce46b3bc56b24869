import BoundedHTTP
import Foundation
import OnTheMapModels

/// The live client: `BoundedHTTP` exchanges, `Codable` bodies, both dialects.
///
/// Cookies are kept per client (the XSRF token of its own session, nothing else), so two clients
/// in one process — tests, or the app and its embedded server — never see each other's sessions.
public final class OnTheMapClient: OnTheMapAPI, @unchecked Sendable {
    public let configuration: APIConfiguration
    /// Every request goes through it: one connection a request, no cookie store, no cache.
    private let http: any HTTPExchanging
    private let endpoint: Endpoint
    private let state = NSLock()
    private var session: UserSession?
    private var xsrfToken: String?

    public init(configuration: APIConfiguration, http: any HTTPExchanging = BoundedHTTPClient()) {
        self.configuration = configuration
        self.http = http
        endpoint = Endpoint(dialect: configuration.dialect)
    }

    /// The session of the logged-in user, if any.
    public var currentSession: UserSession? {
        state.withLock { session }
    }

    /// Adopts a session kept from an earlier run (`onthemap login`): later requests carry it as a
    /// bearer token, and logging out deletes it by that token.
    public func resume(_ stored: UserSession) {
        state.withLock {
            session = stored
            xsrfToken = nil
        }
    }

    // MARK: Session and users

    public func logIn(email: String, password: String) async throws(APIError) -> UserSession {
        let body = try encode(SessionRequest(username: email, password: password))
        let response = try await send("POST", endpoint.session, body: body)
        let payload = XSSIPrefix.strip(response.body)
        guard response.status == 200 else {
            throw sessionError(status: response.status, payload: payload, response: response)
        }
        return try adoptSession(payload, response)
    }

    public func signUp(_ request: SignUpRequest) async throws(APIError) -> UserSession {
        let response = try await send("POST", endpoint.users, body: try encode(request))
        let payload = XSSIPrefix.strip(response.body)
        guard (200..<300).contains(response.status) else {
            throw signUpError(response, payload: payload)
        }
        return try adoptSession(payload, response)
    }

    /// Keeps the session of a login or sign-up answer, and its XSRF cookie for logging out.
    func adoptSession(_ payload: Data, _ response: HTTPAnswer) throws(APIError) -> UserSession {
        let answer: SessionResponse = try decode(payload)
        let newSession = UserSession(
            accountKey: answer.account.key, sessionID: answer.session.id, expiration: answer.session.expiration)
        let token = response.cookie(named: "XSRF-TOKEN")
        state.withLock {
            session = newSession
            xsrfToken = token
        }
        return newSession
    }

    public func logOut() async throws(APIError) {
        let (current, token) = state.withLock { (session, xsrfToken) }
        var headers: [String: String] = [:]
        if let token {
            headers["X-XSRF-TOKEN"] = token
            headers["Cookie"] = "XSRF-TOKEN=\(token)"
        }
        if let current { headers["Authorization"] = "Bearer \(current.sessionID)" }
        let response = try await send("DELETE", endpoint.session, headers: headers)
        // Forget the session whatever the server said: the user asked to leave.
        state.withLock {
            session = nil
            xsrfToken = nil
        }
        guard response.status == 200 else {
            throw sessionError(status: response.status, payload: XSSIPrefix.strip(response.body), credentialsAreWrongOn403: false)
        }
    }

    public func publicUser(key: String) async throws(APIError) -> PublicUser {
        // With the session as a bearer token, the server adds the email when the key is the
        // session's own: how `onthemap whoami` learns that a stored session is still alive.
        var headers: [String: String] = [:]
        if let current = currentSession { headers["Authorization"] = "Bearer \(current.sessionID)" }
        let response = try await send("GET", endpoint.user(key), headers: headers)
        let payload = XSSIPrefix.strip(response.body)
        guard response.status == 200 else {
            throw sessionError(status: response.status, payload: payload, credentialsAreWrongOn403: false)
        }
        switch configuration.dialect {
        case .v1: return try decode(payload)
        case .legacy: return (try decode(payload) as WrappedPublicUser).user
        }
    }

    // MARK: StudentLocation

    public func locations(_ query: LocationQuery) async throws(APIError) -> StudentLocationList {
        var items: [(String, String)] = [("limit", String(query.limit)), ("skip", String(query.skip)), ("order", query.order)]
        if let whereClause = query.whereClause {
            items.append(("where", String(decoding: try encode(whereClause), as: UTF8.self)))
        }
        let data = try await locationRequest("GET", endpoint.studentLocation, query: items)
        do {
            return try StudentLocationList.decode(data)
        } catch {
            throw .unreadableResponse(detail: "StudentLocation list: \(error)")
        }
    }

    public func locations(ofUser key: String) async throws(APIError) -> [StudentInformation] {
        var items: [(String, String)] = [("order", "-updatedAt")]
        switch configuration.dialect {
        case .v1: items.append(("uniqueKey", key))
        case .legacy:
            let clause = JSONValue.object(["uniqueKey": .string(key)])
            items.append(("where", String(decoding: try encode(clause), as: UTF8.self)))
        }
        let data = try await locationRequest("GET", endpoint.studentLocation, query: items)
        do {
            return try StudentLocationList.decode(data).locations
        } catch {
            throw .unreadableResponse(detail: "StudentLocation list: \(error)")
        }
    }

    public func createLocation(_ location: NewStudentLocation) async throws(APIError) -> CreatedLocation {
        let data = try await locationRequest("POST", endpoint.studentLocation, body: try encode(location))
        return try decode(data)
    }

    public func updateLocation(objectId: String, with location: NewStudentLocation) async throws(APIError)
        -> UpdatedLocation
    {
        let data = try await locationRequest("PUT", endpoint.studentLocation(objectId), body: try encode(location))
        return try decode(data)
    }

    public func deleteLocation(objectId: String) async throws(APIError) {
        _ = try await locationRequest("DELETE", endpoint.studentLocation(objectId))
    }

    public func hideLocation(objectId: String, reason: String) async throws(APIError) {
        _ = try await locationRequest("POST", endpoint.hide(objectId), body: try encode(["reason": reason]))
    }

    public func unhideLocation(objectId: String) async throws(APIError) {
        _ = try await locationRequest("POST", endpoint.unhide(objectId), body: Data("{}".utf8))
    }

    // MARK: Your data

    public func deleteAccount(key: String, password: String?) async throws(APIError) -> AccountDeletion {
        let body = try encode(password.map { ["password": $0] } ?? [:])
        let response = try await send("DELETE", endpoint.user(key), headers: bearer(), body: body)
        let payload = XSSIPrefix.strip(response.body)
        guard response.status == 200 else {
            // A wrong password is a 403, counted like a failed login.
            throw sessionError(status: response.status, payload: payload, response: response)
        }
        return try decode(payload)
    }

    public func exportAccount(key: String) async throws(APIError) -> AccountExport {
        let response = try await send("GET", endpoint.export(key), headers: bearer())
        let payload = XSSIPrefix.strip(response.body)
        guard response.status == 200 else {
            throw sessionError(
                status: response.status, payload: payload, response: response, credentialsAreWrongOn403: false)
        }
        let answer: AccountExport = try decode(payload)
        guard case .object = answer.account else {
            throw .unreadableResponse(detail: "export: account is not an object")
        }
        return answer
    }

    // MARK: Plumbing

    /// The session as a bearer token, when there is one.
    private func bearer() -> [String: String] {
        currentSession.map { ["Authorization": "Bearer \($0.sessionID)"] } ?? [:]
    }

    /// A StudentLocation request: Parse headers, the session as a bearer token, no prefix to strip.
    private func locationRequest(
        _ method: String, _ path: String, query: [(String, String)] = [], body: Data? = nil
    ) async throws(APIError) -> Data {
        var headers: [String: String] = [:]
        if let id = configuration.parseApplicationID { headers["X-Parse-Application-Id"] = id }
        if let key = configuration.parseRESTAPIKey { headers["X-Parse-REST-API-Key"] = key }
        if let current = currentSession { headers["Authorization"] = "Bearer \(current.sessionID)" }
        let response = try await send(method, path, query: query, headers: headers, body: body)
        guard (200..<300).contains(response.status) else {
            throw Self.error(
                status: response.status, message: Self.message(in: response.body),
                code: Self.code(in: response.body), response: response)
        }
        return response.body
    }

    func send(
        _ method: String, _ path: String, query: [(String, String)] = [], headers: [String: String] = [:],
        body: Data? = nil
    ) async throws(APIError) -> HTTPAnswer {
        var text = configuration.baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        if !query.isEmpty { text += "?" + QueryString.encode(query) }
        guard let url = URL(string: text) else {
            throw .unreadableResponse(detail: "bad URL \(text)")
        }
        var fields = [HTTPField("Accept", "application/json")]
        if body != nil { fields.append(HTTPField("Content-Type", "application/json")) }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { fields.append(HTTPField(name, value)) }
        do {
            // Read with a cap and one deadline for the whole answer: a hostile or broken server
            // cannot make the app read hundreds of megabytes, or drip for ever.
            return try await http.exchange(
                HTTPRequest(method: method, url: url, fields: fields, body: body),
                maxBytes: APIConfiguration.maxAnswerBytes, deadline: .seconds(configuration.timeout))
        } catch .tooBig(let limit) {
            throw .answerTooBig(server: configuration.serverDescription, maxBytes: limit)
        } catch .deadline {
            throw .timedOut(server: configuration.serverDescription)
        } catch .insecure(let detail) {
            throw .insecureServer(server: configuration.serverDescription, detail: String(detail.prefix(120)))
        } catch .malformedAnswer(let detail) {
            throw .malformedAnswer(server: configuration.serverDescription, detail: String(detail.prefix(120)))
        } catch {
            throw .cannotReachServer(server: configuration.serverDescription)
        }
    }

    func sessionError(
        status: Int, payload: Data, response: HTTPAnswer? = nil, credentialsAreWrongOn403: Bool = true
    ) -> APIError {
        let message = (try? JSONDecoder().decode(UdacityErrorBody.self, from: payload))?.error ?? Self.message(in: payload)
        if status == 403 && credentialsAreWrongOn403 {
            return .invalidCredentials(message: message)
        }
        return Self.error(status: status, message: message, code: Self.code(in: payload), response: response)
    }

    /// The error of a refused answer. The fair-share codes of Docs/Access.md get their own cases,
    /// so that the app and the CLI show the server's sentence: 403 code 119, 429 code 155.
    static func error(status: Int, message: String, code: Int? = nil, response: HTTPAnswer? = nil) -> APIError {
        if status == 403, code == 119 { return .notAllowed(message: message) }
        if status == 429, code == 155 {
            return .tooManyChanges(
                retryAfter: RetryDelay.seconds(header: response?.value(of: "Retry-After")),
                message: message)
        }
        if status == 429 {
            return .tooManyRequests(
                retryAfter: RetryDelay.seconds(header: response?.value(of: "Retry-After")),
                message: message)
        }
        return status >= 500 ? .serverError(status: status, message: message) : .refused(status: status, message: message)
    }

    /// The `error` text of a JSON error body, or a short plain-text excerpt.
    static func message(in data: Data) -> String {
        if let body = try? JSONDecoder().decode(JSONValue.self, from: XSSIPrefix.strip(data)),
            let message = body["error"]?.stringValue
        {
            return message
        }
        let text = String(decoding: data.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "no reason given" : text
    }

    /// The numeric `code` of a JSON error body (`{"code":119,"error":…}`), if any.
    static func code(in data: Data) -> Int? {
        guard let body = try? JSONDecoder().decode(JSONValue.self, from: XSSIPrefix.strip(data)),
            case .number(let number)? = body["code"], number.isFinite, number == number.rounded(), abs(number) < 1e9
        else { return nil }
        return Int(number)
    }

    private func encode(_ value: some Encodable) throws(APIError) -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw .unreadableResponse(detail: "could not encode request: \(error)")
        }
    }

    private func decode<T: Decodable>(_ data: Data) throws(APIError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw .unreadableResponse(detail: "\(T.self): \(error)")
        }
    }
}
