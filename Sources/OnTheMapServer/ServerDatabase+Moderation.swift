import Foundation
import OnTheMapModels

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

    private var audit: AuditLog { AuditLog(storage: storage) }

    /// The roles an account may have.
    public static let roles = AccountRole.allCases.map(\.rawValue)

    /// Sets an account's role (`student` or `moderator`); returns the key.
    public func setRole(keyOrEmail: String, role: String) async throws -> String {
        guard let role = AccountRole(rawValue: role) else {
            throw AccountError.invalid("The role is student or moderator, not \(role).")
        }
        let key = try await accountKey(keyOrEmail)
        guard try await storage.setRole(key: key, role: role) else {
            throw AccountError.invalid("No account with the key or email \(keyOrEmail).")
        }
        try await audit.record(actor: AuditLog.operator, action: "role", target: key, reason: role.rawValue)
        return key
    }

    /// Suspends an account (its sessions end, it cannot log in, its rows are hidden) or, with
    /// `suspended: false`, lets it back (the rows the suspension hid are shown); returns the key.
    public func setSuspended(keyOrEmail: String, suspended: Bool, reason: String? = nil) async throws -> String {
        let key = try await accountKey(keyOrEmail)
        let at = suspended ? WireDate.string(from: Date()) : nil
        guard try await storage.setSuspended(key: key, at: at) else {
            throw AccountError.invalid("No account with the key or email \(keyOrEmail).")
        }
        try await audit.record(
            actor: AuditLog.operator, action: suspended ? "suspend" : "unsuspend", target: key, reason: reason)
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

    /// Hides a row (with a reason, at most 200 bytes) or shows it again (`reason` nil).
    public func setHidden(objectId: String, reason: String?) async throws {
        if let reason {
            guard !reason.isEmpty, reason.utf8.count <= LocationController.maxReasonBytes else {
                throw LocationError.invalid("Give a reason of 1 to \(LocationController.maxReasonBytes) bytes.")
            }
        }
        let mark = reason.map { HiddenMark(at: WireDate.string(from: Date()), reason: $0, by: AuditLog.operator) }
        guard try await storage.setHidden(objectId: objectId, mark: mark) else {
            throw LocationError.notFound(objectId)
        }
        try await audit.record(
            actor: AuditLog.operator, action: reason == nil ? "unhide" : "hide", target: objectId, reason: reason)
    }

    /// Deletes a row, whoever owns it.
    public func deleteLocation(objectId: String) async throws {
        guard try await storage.delete(objectId: objectId, owner: nil) == .done else {
            throw LocationError.notFound(objectId)
        }
        try await audit.record(actor: AuditLog.operator, action: "delete-location", target: objectId)
    }

    /// The audit log, oldest first; from `since` (an ISO date or date and time) when given.
    public func auditLog(since: String?) async throws -> [AuditRecord] {
        try await storage.auditEntries(since: since).map {
            AuditRecord(at: $0.at, actor: $0.actor, action: $0.action, target: $0.target, reason: $0.reason)
        }
    }
}
