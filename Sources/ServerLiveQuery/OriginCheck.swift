import Foundation

/// Whether a LiveQuery upgrade's `Origin` may open a socket (Docs/Security.md): no `Origin`
/// (the app, `onthemap watch`, native SDKs send none), the server's own origin (the `Origin`'s
/// host and port are the request's `Host`), or one given with `--allowed-origin`. Anything else
/// — another site's page, `null` — is refused 403 at the upgrade.
enum OriginCheck {
    static func allows(origin: String?, host: String?, allowed: [String]) -> Bool {
        guard let origin else { return true }
        let given = normalised(origin)
        if allowed.contains(where: { normalised($0) == given }) { return true }
        guard let host, let range = given.range(of: "://") else { return false }
        let scheme = given[..<range.lowerBound]
        guard scheme == "http" || scheme == "https" else { return false }
        return given[range.upperBound...] == host.lowercased()
    }

    static func normalised(_ origin: String) -> String {
        var text = origin.trimmingCharacters(in: .whitespaces).lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
