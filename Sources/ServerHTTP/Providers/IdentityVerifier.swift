import Foundation
import ServerStorage

/// Checks a login provider's access token and says whose it is. One per configured provider;
/// each provider's particulars (Facebook's `debug_token`, an OAuth userinfo call) live in its own.
protocol IdentityVerifier: Sendable {
    /// `facebook`, or the OAuth provider's name.
    var provider: String { get }
    /// The person the token belongs to.
    /// - Throws: `ProviderRefusal` (403) when the token is not good for this server,
    ///   `ProviderUnreachable` (502) when the provider did not answer usably.
    func verify(accessToken: String) async throws -> ProviderProfile
}

/// Who a provider says the person is.
struct ProviderProfile: Sendable, Hashable {
    var identity: ProviderIdentity
    var firstName: String
    var lastName: String
}

/// Why a provider's token does not log anyone in (403, one documented message per case).
enum ProviderRefusal: Error, Equatable {
    case invalid(provider: String)
    case otherApp(provider: String)
    case expired(provider: String)

    var message: String {
        switch self {
        case .invalid(let provider): return "The \(provider) access token is not valid."
        case .otherApp(let provider): return "The \(provider) access token was issued for another app."
        case .expired(let provider): return "The \(provider) access token has expired."
        }
    }
}

extension ProviderProfile {
    /// Names cleaned for storage: control characters dropped, trimmed, at most 100 characters;
    /// an empty first name becomes the provider's user id so that the account has a label.
    static func cleaned(_ name: String?) -> String {
        let kept = (name ?? "").unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }
        return String(String.UnicodeScalarView(kept)).trimmingCharacters(in: .whitespacesAndNewlines).prefix(100).description
    }
}
