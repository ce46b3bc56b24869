import Foundation
import OnTheMapModels

/// A provider the app can run a device login with, as the server's discovery describes it:
/// Facebook Login for Devices, or an RFC 8628 provider.
public struct DeviceLoginProvider: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Facebook: `access_token=APP_ID|CLIENT_TOKEN`, `code`, Graph error subcodes.
        case facebook(appID: String, clientToken: String)
        /// RFC 8628: `client_id`, `device_code`, OAuth error strings.
        case oauth(name: String, clientID: String)
    }

    public var kind: Kind
    public var deviceURL: URL
    public var tokenURL: URL
    public var scope: String?

    public init(kind: Kind, deviceURL: URL, tokenURL: URL, scope: String? = nil) {
        self.kind = kind
        self.deviceURL = deviceURL
        self.tokenURL = tokenURL
        self.scope = scope
    }

    /// `facebook`, or the OAuth provider's name.
    public var name: String {
        switch kind {
        case .facebook: return "facebook"
        case .oauth(let name, _): return name
        }
    }

    /// For buttons and messages: `Facebook`, `GitHub`, or the name capitalised.
    public var displayName: String {
        switch name {
        case "facebook": return "Facebook"
        case "github": return "GitHub"
        case "gitlab": return "GitLab"
        default: return name.prefix(1).uppercased() + name.dropFirst()
        }
    }

    /// The credential that carries this provider's token to the server.
    public func credential(accessToken: String) -> ProviderCredential {
        switch kind {
        case .facebook: return .facebook(accessToken: accessToken)
        case .oauth(let name, _): return .oauth(provider: name, accessToken: accessToken)
        }
    }

    /// The device-login providers of a discovery answer, in its order; entries that are
    /// incomplete, not http(s), or of unknown types are left out.
    public static func all(in providers: AuthProviders) -> [DeviceLoginProvider] {
        providers.providers.compactMap { entry in
            guard let device = entry.deviceURL.flatMap(Self.webURL), let token = entry.tokenURL.flatMap(Self.webURL) else { return nil }
            switch entry.type {
            case "facebook":
                guard let appID = entry.appId, let clientToken = entry.clientToken, !appID.isEmpty else { return nil }
                return DeviceLoginProvider(
                    kind: .facebook(appID: appID, clientToken: clientToken), deviceURL: device, tokenURL: token, scope: entry.scope)
            case "oauth":
                guard let name = entry.name, let clientID = entry.clientId, Self.isPlainName(name) else { return nil }
                return DeviceLoginProvider(kind: .oauth(name: name, clientID: clientID), deviceURL: device, tokenURL: token, scope: entry.scope)
            default:
                return nil
            }
        }
    }

    /// A provider name the app shows as is: lowercase letters, digits, `-`, `_`, at most 32.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 32
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }

    static func webURL(_ text: String) -> URL? {
        guard text.count <= 2048, let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else { return nil }
        return url
    }
}
