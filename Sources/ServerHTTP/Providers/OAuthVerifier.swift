import Foundation
import OnTheMapModels
import ServerConfig
import ServerStorage

/// An RFC 8628 provider's token check: the userinfo call with the token as a bearer, then the
/// provider's proof that the token was issued to this client id (`OAuthAudienceCheck`). The id is
/// `sub` (OpenID Connect) or `id` (GitHub); names from `given_name`/`family_name`, else `name`
/// split at its last space, else `login`.
struct OAuthVerifier: IdentityVerifier {
    let settings: OAuthProviderSettings
    var http = ProviderHTTP()

    var provider: String { settings.name }

    func verify(accessToken: String) async throws -> ProviderProfile {
        let reply = try await http.get(settings.userinfoURL, headers: ["Authorization": "Bearer " + accessToken])
        if reply.status >= 500 { throw ProviderUnreachable() }
        guard reply.status == 200 else {
            // RFC 6750 says which: `error="invalid_token", error_description="… expired …"`.
            let challenge = reply.headers["www-authenticate"]?.lowercased() ?? ""
            if challenge.contains("expired") { throw ProviderRefusal.expired(provider: provider) }
            throw ProviderRefusal.invalid(provider: provider)
        }
        // GitHub names the OAuth app a token belongs to in X-OAuth-Client-Id; OpenID Connect in azp/aud.
        let issuedTo = reply.headers["x-oauth-client-id"] ?? reply.json["azp"]?.stringValue ?? reply.json["aud"]?.stringValue
        if let issuedTo, issuedTo != settings.clientID { throw ProviderRefusal.otherApp(provider: provider) }
        try await proveAudience(of: accessToken)
        guard let subject = (reply.json["sub"] ?? reply.json["id"])?.stringValue, !subject.isEmpty, subject.count <= 64 else {
            throw ProviderRefusal.invalid(provider: provider)
        }
        var first = reply.json["given_name"]?.stringValue
        var last = reply.json["family_name"]?.stringValue
        if first == nil, let name = reply.json["name"]?.stringValue, !name.isEmpty {
            let parts = name.split(separator: " ")
            first = parts.dropLast().joined(separator: " ")
            last = parts.last.map(String.init)
            if first?.isEmpty == true { (first, last) = (last, "") }
        }
        return ProviderProfile(
            identity: ProviderIdentity(provider: provider, subject: subject),
            firstName: ProviderProfile.cleaned(first ?? reply.json["login"]?.stringValue),
            lastName: ProviderProfile.cleaned(last))
    }

    /// Throws unless the provider confirms that `token` was issued to `settings.clientID`: another
    /// app's token (`otherApp`), or 502 when the provider does not answer or refuses the server's
    /// own credentials (a misconfiguration, not the person's guess).
    private func proveAudience(of token: String) async throws {
        let client = settings.clientID
        switch settings.audienceCheck {
        case .github(let api, let secret):
            let url = api.appendingPathComponent("applications").appendingPathComponent(client).appendingPathComponent("token")
            let body = try JSONSerialization.data(withJSONObject: ["access_token": token])
            let reply = try await http.send(
                "POST", url, headers: ["Authorization": Self.basic(client, secret), "Content-Type": "application/json"], body: body)
            if reply.status >= 500 || reply.status == 401 || reply.status == 403 { throw ProviderUnreachable() }
            // 404 (or 422): not a live token of this app.
            guard reply.status == 200 else { throw ProviderRefusal.otherApp(provider: provider) }
        case .introspection(let url, let secret):
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let form = "token=" + (token.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") + "&token_type_hint=access_token"
            let reply = try await http.send(
                "POST", url,
                headers: ["Authorization": Self.basic(client, secret), "Content-Type": "application/x-www-form-urlencoded"],
                body: Data(form.utf8))
            if reply.status != 200 { throw ProviderUnreachable() }
            guard reply.json["active"] == .bool(true) else { throw ProviderRefusal.invalid(provider: provider) }
            guard reply.json["client_id"]?.stringValue == client || Self.audience(reply.json["aud"], contains: client) else {
                throw ProviderRefusal.otherApp(provider: provider)
            }
        case .tokeninfo(let url):
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            let items = components?.queryItems ?? []
            components?.queryItems = items + [URLQueryItem(name: "access_token", value: token)]
            guard let url = components?.url else { throw ProviderUnreachable() }
            let reply = try await http.send("GET", url)
            if reply.status >= 500 { throw ProviderUnreachable() }
            guard reply.status == 200 else { throw ProviderRefusal.invalid(provider: provider) }
            guard Self.audience(reply.json["aud"], contains: client) || reply.json["azp"]?.stringValue == client else {
                throw ProviderRefusal.otherApp(provider: provider)
            }
        }
    }

    /// `aud` as RFC 7519 allows it: one string or an array of them.
    private static func audience(_ value: JSONValue?, contains client: String) -> Bool {
        switch value {
        case .string(let one): return one == client
        case .array(let many): return many.contains(.string(client))
        default: return false
        }
    }

    private static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data((user + ":" + password).utf8).base64EncodedString()
    }
}
