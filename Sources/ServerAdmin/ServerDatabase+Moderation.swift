import ClassRules
import Foundation
import OnTheMapModels
import ServerStorage

/// Moderation from the command line (`onthemap-server user role|suspend|unsuspend`, `location
/// list|hide|unhide|delete`, `audit`): the same storage facts the API's moderators set, each act
/// written to the audit log with the actor `operator` (Docs/Access.md).
extension ServerDatabase {
    /// A row as `location list` shows it.
    public struct LocationSummary: Sendable, Equatable {
        public var objectId: String
        public var uniqueKey: String
        public var name: String
        public var mapString: String
        public var mediaURL: String
        public var updatedAt: String
        /// Why it is hidden; `nil` while it is public.
        public var hiddenReason: String?
    }

    /// One line of the audit log.
    public struct AuditRecord: Sendable, Equatable {
        public var at: String
        public var actor: String
        public var action: String
        public var target: String
        public var reason: String?
    }

    /// The roles an account may have.
    public static let roles = AccountRole.allCases.map(\.rawValue)

    /// Sets an account's role (`student` or `moderator`); returns the key.
    public func setRole(keyOrEmail: String, role: String) async throws -> String {
        guard let role = AccountRole(rawValue: role) else {
            throw AccountError.invalid("The role is student or moderator, not \(role).")
        }
        let key = try await accountKey(keyOrEmail)
        do {
            try await writes.setRole(key: key, role: role, try permit(.setRole(key: key)))
        } catch WriteRefusal.notFound {
            throw AccountError.invalid("No account with the key or email \(keyOrEmail).")
        }
        return key
    }

    /// Suspends an account (its sessions end, it cannot log in, its rows are hidden) or, with
    /// `suspended: false`, lets it back (the rows the suspension hid are shown); returns the key.
    public func setSuspended(keyOrEmail: String, suspended: Bool, reason: String? = nil) async throws -> String {
        let key = try await accountKey(keyOrEmail)
        do {
            try await writes.setSuspended(key: key, suspended: suspended, reason: reason, try permit(.setSuspended(key: key)))
        } catch WriteRefusal.notFound {
            throw AccountError.invalid("No account with the key or email \(keyOrEmail).")
        }
        return key
    }

    /// The rows of one account (key or email), or every row; only hidden ones when `hiddenOnly`.
    /// At most `limit`, newest first.
    public func locations(account: String?, hiddenOnly: Bool, limit: Int = 1000) async throws -> [LocationSummary] {
        let newest = [ListQuery.SortKey(field: .updatedAt, descending: true)]
        var query = ListQuery(order: newest, limit: limit)
        if let account { query = .rows(of: try await accountKey(account), order: newest, limit: limit) }
        if hiddenOnly { query.visibility = .hiddenOnly }
        return try await storage.locations(query).rows.map {
            LocationSummary(
                objectId: $0.objectId, uniqueKey: $0.uniqueKey ?? "",
                name: [$0.firstName, $0.lastName].compactMap { $0 }.joined(separator: " "),
                mapString: $0.mapString ?? "",
                mediaURL: $0.mediaURL ?? "", updatedAt: $0.updatedAt,
                hiddenReason: $0.isHidden ? ($0.hiddenReason ?? "") : nil)
        }
    }

    /// Why a location act failed.
    public enum LocationError: Error, CustomStringConvertible {
        case notFound(String)
        case invalid(String)

        public var description: String {
            switch self {
            case .notFound(let id): return "No location with the objectId \(id)."
            case .invalid(let message): return message
            }
        }
    }

    /// Hides a row (with a reason: `ClassWrites.checkReason`, as for the API) or shows it again
    /// (`reason` nil).
    public func setHidden(objectId: String, reason: String?) async throws {
        do {
            try await writes.setHidden(objectId: objectId, reason: reason, try permit(.setHidden(objectId: objectId)))
        } catch WriteRefusal.notFound {
            throw LocationError.notFound(objectId)
        } catch let refusal as WriteRefusal {
            throw LocationError.invalid(refusal.description)
        }
    }

    /// Deletes a row, whoever owns it.
    public func deleteLocation(objectId: String) async throws {
        do {
            try await writes.deleteLocation(objectId: objectId, try permit(.deleteLocation(objectId: objectId)))
        } catch WriteRefusal.notFound {
            throw LocationError.notFound(objectId)
        }
    }

    /// The audit log, oldest first; from `since` (an ISO date or date and time) when given.
    public func auditLog(since: String?) async throws -> [AuditRecord] {
        try await storage.auditEntries(since: since).map {
            AuditRecord(at: $0.at, actor: $0.actor, action: $0.action, target: $0.target, reason: $0.reason)
        }
    }
}
