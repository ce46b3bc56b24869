import Foundation
import OnTheMapModels

/// The paths of a dialect (`RequestPath`, shared with the server), with path segments escaped.
struct Endpoint {
    var dialect: APIDialect

    private var accounts: RequestPath.Accounts { dialect == .v1 ? .v1 : .api }
    private var locations: RequestPath.Locations { dialect == .v1 ? .v1 : .parse }

    var session: String { accounts.session }
    var users: String { accounts.users }
    var authProviders: String { accounts.authProviders }
    var studentLocation: String { locations.collection }

    func user(_ key: String) -> String { accounts.user(QueryString.escape(key)) }
    func studentLocation(_ objectId: String) -> String { locations.object(QueryString.escape(objectId)) }
    func export(_ key: String) -> String { accounts.export(QueryString.escape(key)) }
    /// Moderation is `/v1` only (Docs/Access.md), whichever dialect the rest speaks.
    func hide(_ objectId: String) -> String { RequestPath.Locations.v1.hide(QueryString.escape(objectId)) }
    func unhide(_ objectId: String) -> String { RequestPath.Locations.v1.unhide(QueryString.escape(objectId)) }
}

/// Strict percent-encoding for query values and path segments.
///
/// `URLComponents` leaves `+` alone, which servers decode as a space; JSON in `where` needs
/// everything but the unreserved characters escaped.
enum QueryString {
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    static func encode(_ items: [(String, String)]) -> String {
        items.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }
}
