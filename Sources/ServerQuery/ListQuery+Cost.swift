import ServerStorage
import enum ServerStorage.Predicate

/// Which list queries count as expensive (`ExpensiveQueryGate`).
extension ListQuery {
    /// `false` for the shapes an index serves whatever the table holds — the apps' own requests:
    /// no filter (or `.never`) in `updatedAt` or `objectId` order, and lookups by `uniqueKey` or
    /// `objectId` (any order: they match few rows). Every `$regex` is expensive: its cost per row
    /// is the client's to choose.
    package var isExpensive: Bool {
        if predicate.containsRegex { return true }
        switch predicate {
        case .always, .never:
            guard let first = order.first else { return false }
            return first.field != .updatedAt && first.field != .objectId
        default:
            return !predicate.narrowsToKeys
        }
    }
}

extension Predicate {
    var containsRegex: Bool {
        switch self {
        case .regex: return true
        case .and(let parts), .or(let parts): return parts.contains { $0.containsRegex }
        case .not(let inner): return inner.containsRegex
        case .always, .never, .compare, .isNull, .inList: return false
        }
    }

    /// Matches only rows with given `uniqueKey` or `objectId` values (an index lookup).
    var narrowsToKeys: Bool {
        switch self {
        case .compare(let field, .equal, _), .inList(let field, _): return field == .uniqueKey || field == .objectId
        case .and(let parts): return parts.contains { $0.narrowsToKeys }
        default: return false
        }
    }
}
