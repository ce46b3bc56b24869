/// A StudentLocation row as stored. Client fields are optional: old dumps had missing ones, and
/// a row with broken coordinates may be held (it is served as it is; clients skip it).
struct StoredLocation: Sendable, Hashable {
    var objectId: String
    var uniqueKey: String?
    var firstName: String?
    var lastName: String?
    var mapString: String?
    var mediaURL: String?
    var latitude: Double?
    var longitude: Double?
    /// ISO-8601 with milliseconds; in this fixed format text order is time order.
    var createdAt: String
    var updatedAt: String
}

/// A change to the client fields of a row: only the fields present are written.
struct LocationChanges: Sendable, Hashable {
    var uniqueKey: String?
    var firstName: String?
    var lastName: String?
    var mapString: String?
    var mediaURL: String?
    var latitude: Double?
    var longitude: Double?
}

extension LocationChanges {
    /// The fields this change sets, in column order, as values to bind: what an UPDATE assigns.
    var assignments: [(LocationField, SQLValue)] {
        let texts: [(LocationField, String?)] = [
            (.uniqueKey, uniqueKey), (.firstName, firstName), (.lastName, lastName), (.mapString, mapString),
            (.mediaURL, mediaURL),
        ]
        let numbers: [(LocationField, Double?)] = [(.latitude, latitude), (.longitude, longitude)]
        return texts.compactMap { field, value in value.map { (field, SQLValue.text($0)) } }
            + numbers.compactMap { field, value in value.map { (field, SQLValue.real($0)) } }
    }
}

/// An account that can log in.
struct Account: Sendable, Hashable {
    var key: String
    /// For an account made from a provider profile, `<provider>:<user id>` (not an email, so no
    /// sign-up can take it).
    var email: String
    /// Empty for an account made from a provider profile: no password login until
    /// `user reset-password` sets one.
    var passwordHash: String
    var firstName: String
    var lastName: String
    var createdAt: String
}

/// A session as stored: hashes and the sealed id only (`SessionSeal`), never the tokens.
struct StoredSession: Sendable, Hashable {
    var idHash: String
    var accountKey: String
    var xsrfHash: String
    /// The id masked by the XSRF token (`SessionSeal.seal`).
    var sealedId: String
    /// Seconds since 1970.
    var expiresAt: Double
}

/// Outcome of a write that may be refused for ownership.
enum WriteOutcome: Sendable, Equatable {
    case done
    case notFound
    case notOwner
}

/// Why storage refused a write.
enum StorageError: Error, Equatable {
    case duplicateEmail
    /// The provider identity is linked already (two first logins of one person at once).
    case duplicateIdentity
}
