import Foundation
import OnTheMapModels
import ServerConfig
import ServerSessions
import ServerStorage

/// Facebook's token check: `GET {graph}/debug_token` with the app token (`APP_ID|APP_SECRET`) says
/// whether the token is valid, for which app and until when; `GET {graph}/me` gives the names.
struct FacebookVerifier: IdentityVerifier {
    let settings: FacebookSettings
    var http = ProviderHTTP()
    var now: @Sendable () -> Date = { Date() }

    var provider: String { "facebook" }
    private static let label = "Facebook"

    func verify(accessToken: String) async throws -> ProviderProfile {
        let appToken = settings.appID + "|" + settings.appSecret
        let debug = try await http.get(url("debug_token", ["input_token": accessToken, "access_token": appToken]))
        guard debug.status == 200, let data = debug.json["data"] else {
            // Graph answers a malformed token with 400 and an error object; a 5xx is Facebook's trouble.
            if debug.status >= 500 || debug.json["error"] == nil { throw ProviderUnreachable() }
            throw ProviderRefusal.invalid(provider: Self.label)
        }
        let expiresAt = data["expires_at"]?.doubleValue ?? 0
        // 0 means "never expires" (long-lived tokens).
        let expired = expiresAt > 0 && expiresAt <= now().timeIntervalSince1970
        guard case .bool(true)? = data["is_valid"] else {
            throw expired ? ProviderRefusal.expired(provider: Self.label) : ProviderRefusal.invalid(provider: Self.label)
        }
        guard data["app_id"]?.stringValue == settings.appID else { throw ProviderRefusal.otherApp(provider: Self.label) }
        guard !expired else { throw ProviderRefusal.expired(provider: Self.label) }
        guard let userID = data["user_id"]?.stringValue, !userID.isEmpty, userID.count <= 64 else {
            throw ProviderRefusal.invalid(provider: Self.label)
        }
        // appsecret_proof: accepted always, required by apps with "Require App Secret" turned on.
        let proof = SHA256.hmacHex(key: settings.appSecret, message: accessToken)
        let me = try await http.get(
            url("me", ["fields": "id,first_name,last_name", "access_token": accessToken, "appsecret_proof": proof]))
        guard me.status == 200 else {
            if me.status >= 500 { throw ProviderUnreachable() }
            throw ProviderRefusal.invalid(provider: Self.label)
        }
        // The profile must be the person the token was checked for.
        guard me.json["id"]?.stringValue == userID else { throw ProviderRefusal.invalid(provider: Self.label) }
        return ProviderProfile(
            identity: ProviderIdentity(provider: provider, subject: userID),
            firstName: ProviderProfile.cleaned(me.json["first_name"]?.stringValue),
            lastName: ProviderProfile.cleaned(me.json["last_name"]?.stringValue))
    }

    private func url(_ path: String, _ query: [String: String]) -> URL {
        guard var components = URLComponents(url: settings.graphURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        else { return settings.graphURL }
        components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        // `|` and `+` must reach Graph escaped.
        let encoded = components.percentEncodedQuery ?? ""
        components.percentEncodedQuery = encoded.replacingOccurrences(of: "|", with: "%7C").replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? settings.graphURL
    }
}
