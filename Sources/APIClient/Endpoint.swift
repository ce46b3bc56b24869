import Foundation

/// The paths of each dialect, in one place.
struct Endpoint {
    var dialect: APIDialect

    var session: String { dialect == .v1 ? "/v1/session" : "/api/session" }
    var users: String { dialect == .v1 ? "/v1/users" : "/api/users" }
    var authProviders: String { dialect == .v1 ? "/v1/auth/providers" : "/api/auth/providers" }
    var studentLocation: String { dialect == .v1 ? "/v1/StudentLocation" : "/parse/classes/StudentLocation" }

    func user(_ key: String) -> String { users + "/" + QueryString.escape(key) }
    func studentLocation(_ objectId: String) -> String { studentLocation + "/" + QueryString.escape(objectId) }
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
