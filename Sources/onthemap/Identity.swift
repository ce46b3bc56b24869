import Foundation
import OnTheMapModels
import SafeText

/// Who a stored session belongs to, as `login` and `whoami` print it (every server string
/// cleaned; the session id is never printed).
struct Identity: Encodable {
    var name: String
    var email: String?
    var key: String
    var server: String
    var expiration: String

    init(user: PublicUser?, session: StoredSession) {
        let full = user.map { "\($0.firstName) \($0.lastName)" } ?? ""
        name = SafeText.clean(full.trimmingCharacters(in: .whitespaces))
        email = user?.email.map { SafeText.clean($0.address) }
        key = SafeText.clean(session.accountKey)
        server = SafeText.clean(session.server)
        expiration = SafeText.clean(session.expiration)
    }

    /// `Ada Lovelace <ada@example.com> (key 1234)`.
    var line: String {
        let who = name.isEmpty ? "user" : name
        return who + (email.map { " <\($0)>" } ?? "") + " (key \(key))"
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
