/// A StudentLocation row as stored. Client fields are optional: old dumps had missing ones, and
/// a row with broken coordinates may be held (it is served as it is; clients skip it).
public struct StoredLocation: Sendable, Hashable {
    package var objectId: String
    package var uniqueKey: String?
    package var firstName: String?
    package var lastName: String?
    package var mapString: String?
    package var mediaURL: String?
    package var latitude: Double?
    package var longitude: Double?
    /// ISO-8601 with milliseconds; in this fixed format text order is time order.
    package var createdAt: String
    package var updatedAt: String
    /// When a moderator (or a suspension) hid the row; `nil` while it is public (Docs/Access.md).
    package var hiddenAt: String?
    package var hiddenReason: String?
    /// The moderator's account key, `operator` (command line) or `suspension`.
    package var hiddenBy: String?

    package var isHidden: Bool { hiddenAt != nil }

    package init(
        objectId: String, uniqueKey: String? = nil, firstName: String? = nil, lastName: String? = nil,
        mapString: String? = nil, mediaURL: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
        createdAt: String, updatedAt: String, hiddenAt: String? = nil, hiddenReason: String? = nil, hiddenBy: String? = nil
    ) {
        self.hiddenAt = hiddenAt
        self.hiddenReason = hiddenReason
        self.hiddenBy = hiddenBy
        self.objectId = objectId
        self.uniqueKey = uniqueKey
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A change to the client fields of a row: only the fields present are written.
public struct LocationChanges: Sendable, Hashable {
    package var uniqueKey: String?
    package var firstName: String?
    package var lastName: String?
    package var mapString: String?
    package var mediaURL: String?
    package var latitude: Double?
    package var longitude: Double?

    package init(
        uniqueKey: String? = nil, firstName: String? = nil, lastName: String? = nil, mapString: String? = nil,
        mediaURL: String? = nil, latitude: Double? = nil, longitude: Double? = nil
    ) {
        self.uniqueKey = uniqueKey
        self.firstName = firstName
        self.lastName = lastName
        self.mapString = mapString
        self.mediaURL = mediaURL
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension LocationChanges {
    /// The fields this change sets, in column order, as values to bind: what an UPDATE assigns.
    package var assignments: [(LocationField, SQLValue)] {
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
public struct Account: Sendable, Hashable {
    package var key: String
    /// For an account made from a provider profile, `<provider>:<user id>` (not an email, so no
    /// sign-up can take it).
    package var email: String
    /// Empty for an account made from a provider profile: no password login until
    /// `user reset-password` sets one.
    package var passwordHash: String
    package var firstName: String
    package var lastName: String
    package var createdAt: String
    package var role: AccountRole
    /// When the account was suspended (no login, no sessions, its rows hidden); `nil` otherwise.
    package var suspendedAt: String?

    package init(
        key: String, email: String, passwordHash: String, firstName: String, lastName: String, createdAt: String,
        role: AccountRole = .student, suspendedAt: String? = nil
    ) {
        self.role = role
        self.suspendedAt = suspendedAt
        self.key = key
        self.email = email
        self.passwordHash = passwordHash
        self.firstName = firstName
        self.lastName = lastName
        self.createdAt = createdAt
    }
}

/// A session as stored: hashes and the sealed id only (`SessionSeal`), never the tokens.
public struct StoredSession: Sendable, Hashable {
    package var idHash: String
    package var accountKey: String
    package var xsrfHash: String
    /// The id masked by the XSRF token (`SessionSeal.seal`).
    package var sealedId: String
    /// Seconds since 1970.
    package var expiresAt: Double

    package init(idHash: String, accountKey: String, xsrfHash: String, sealedId: String, expiresAt: Double) {
        self.idHash = idHash
        self.accountKey = accountKey
        self.xsrfHash = xsrfHash
        self.sealedId = sealedId
        self.expiresAt = expiresAt
    }
}

/// Outcome of a write that may be refused for ownership.
public enum WriteOutcome: Sendable, Equatable {
    case done
    case notFound
    case notOwner
}

/// Why storage refused a write.
package enum StorageError: Error, Equatable {
    case duplicateEmail
    /// The provider identity is linked already (two first logins of one person at once).
    case duplicateIdentity
    /// The invite is used up, expired or unknown (`insert(_:spendingInvite:now:)`).
    case inviteNotUsable
}

/// What deleting an account removed.
public struct AccountDeletion: Sendable, Equatable {
    package var locations: Int
    package var sessions: Int

    package init(locations: Int, sessions: Int) {
        self.locations = locations
        self.sessions = sessions
    }
}

/// Why a row is hidden: the mark `setHidden` writes.
public struct HiddenMark: Sendable, Hashable {
    package var at: String
    package var reason: String
    /// A moderator's key, `operator` or `suspension`.
    package var by: String

    package init(at: String, reason: String, by: String) {
        self.at = at
        self.reason = reason
        self.by = by
    }
}

/// One line of the audit log: who did what to which row or account, and why.
public struct AuditEntry: Sendable, Hashable {
    package var at: String
    /// An account key, or `operator` for the command line.
    package var actor: String
    /// `hide`, `unhide`, `delete-location`, `role`, `suspend`, `unsuspend`, `delete-account`, `restore`.
    package var action: String
    /// A row's objectId, an account's key, or (`restore`) the backup file.
    package var target: String
    package var reason: String?

    package init(at: String, actor: String, action: String, target: String, reason: String? = nil) {
        self.at = at
        self.actor = actor
        self.action = action
        self.target = target
        self.reason = reason
    }
}

/// Which rows a list may hold (Docs/Access.md: `Access.visibility(for:)`).
package enum RowVisibility: Sendable, Hashable {
    /// Rows that are not hidden.
    case `public`
    /// Rows that are not hidden, and every row of this account key.
    case publicAndOwn(String)
    /// Every row (moderators, administration, export).
    case all
    /// Hidden rows only (`onthemap-server location list --hidden`).
    case hiddenOnly
}
