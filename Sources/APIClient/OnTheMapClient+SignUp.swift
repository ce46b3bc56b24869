import Foundation
import OnTheMapModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Discovery of the sign-up policy, and what a refused sign-up means.
extension OnTheMapClient {
    /// `GET …/auth/providers`. A server without the endpoint — the original services, which answer
    /// 404 (or 405/501) — is taken as password login with open sign-up.
    public func authProviders() async throws(APIError) -> AuthProviders {
        let (data, response) = try await send("GET", Endpoint(dialect: configuration.dialect).authProviders)
        let payload = XSSIPrefix.strip(data)
        switch response.statusCode {
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
                status: response.statusCode, payload: payload, response: response, credentialsAreWrongOn403: false)
        }
    }

    /// A refused `POST …/users`: 403 with `"parameter":"invite"` is a missing or bad invite code,
    /// any other 403 a server that takes no sign-ups, 429 too many sign-ups from this address.
    func signUpError(_ response: HTTPURLResponse, payload: Data) -> APIError {
        let body = try? JSONDecoder().decode(UdacityErrorBody.self, from: payload)
        let message = body?.error ?? Self.message(in: payload)
        if response.statusCode == 403 {
            return body?.parameter == "invite" ? .inviteRejected(message: message) : .signUpClosed(message: message)
        }
        return Self.error(status: response.statusCode, message: message, response: response)
    }
}
