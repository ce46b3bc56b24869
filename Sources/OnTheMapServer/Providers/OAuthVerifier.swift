import Foundation
import OnTheMapModels

/// An RFC 8628 provider's token check: the userinfo call with the token as a bearer. The id is
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
}
