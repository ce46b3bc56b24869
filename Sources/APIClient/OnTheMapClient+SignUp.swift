import BoundedHTTP
import Foundation
import OnTheMapModels

/// Discovery of the ways in, provider logins, and what a refused sign-up means.
extension OnTheMapClient {
    /// `GET …/auth/providers`. A server without the endpoint — the original services, which answer
    /// 404 (or 405/501) — is taken as password login with open sign-up.
    public func authProviders() async throws(APIError) -> AuthProviders {
        let response = try await send("GET", Endpoint(dialect: configuration.dialect).authProviders)
        let payload = XSSIPrefix.strip(response.body)
        switch response.status {
        case 200:
            do {
                return try JSONDecoder().decode(AuthProviders.self, from: payload)
            } catch {
                throw .unreadableResponse(detail: "AuthProviders: \(error)")
            }
        case 404, 405, 501:
            return .originalServices
        default:
            throw sessionError(
                status: response.status, payload: payload, response: response, credentialsAreWrongOn403: false)
        }
    }

    /// `POST …/session` with a provider's token; the session is kept exactly as for a password.
    public func logIn(with credential: ProviderCredential) async throws(APIError) -> UserSession {
        let body: Data
        do {
            body = try JSONEncoder().encode(credential)
        } catch {
            throw .unreadableResponse(detail: "could not encode request: \(error)")
        }
        let response = try await send("POST", Endpoint(dialect: configuration.dialect).session, body: body)
        let payload = XSSIPrefix.strip(response.body)
        guard response.status == 200 else {
            let error = sessionError(status: response.status, payload: payload, response: response, credentialsAreWrongOn403: false)
            if response.status == 403, case .refused(_, let message) = error { throw .providerTokenRefused(message: message) }
            throw error
        }
        return try adoptSession(payload, response)
    }

    /// A refused `POST …/users`: 403 with `"parameter":"invite"` is a missing or bad invite code,
    /// any other 403 a server that takes no sign-ups, 429 too many sign-ups from this address.
    func signUpError(_ response: HTTPAnswer, payload: Data) -> APIError {
        let body = try? JSONDecoder().decode(UdacityErrorBody.self, from: payload)
        let message = body?.error ?? Self.message(in: payload)
        if response.status == 403 {
            return body?.parameter == "invite" ? .inviteRejected(message: message) : .signUpClosed(message: message)
        }
        return Self.error(status: response.status, message: message, response: response)
    }
}
