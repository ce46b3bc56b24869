import Foundation
import NIOConcurrencyHelpers

/// Evaluates a `Predicate` on one row in memory, with the SQL compiler's semantics: three-valued
/// logic (a comparison with a missing field is unknown, `NOT` of unknown is true as in
/// `NOT COALESCE(…, 1 = 0)`, unknown does not match), text compared byte by byte (SQLite's
/// BINARY, PostgreSQL's "C" collation), numbers as numbers. LiveQuery uses it to decide whether a
/// written row matches a subscription without asking the database.
extension Predicate {
    /// Whether `row` matches, as `WHERE <condition>` would decide.
    package func matches(_ row: StoredLocation) -> Bool { evaluate(row) == true }

    /// `true`, `false` or unknown (`nil`, SQL's NULL).
    func evaluate(_ row: StoredLocation) -> Bool? {
        switch self {
        case .always: return true
        case .never: return false
        case .and(let parts):
            var result: Bool? = true
            for part in parts {
                switch part.evaluate(row) {
                case false?: return false
                case nil: result = nil
                case true?: break
                }
            }
            return result
        case .or(let parts):
            var result: Bool? = false
            for part in parts {
                switch part.evaluate(row) {
                case true?: return true
                case nil: result = nil
                case false?: break
                }
            }
            return result
        case .not(let inner): return !(inner.evaluate(row) ?? false)
        case .compare(let field, let comparison, let value):
            guard let order = Self.compare(row.value(of: field), value) else { return nil }
            switch comparison {
            case .equal: return order == 0
            case .notEqual: return order != 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            }
        case .isNull(let field, let isNull):
            return (row.value(of: field) == .null) == isNull
        case .inList(let field, let values):
            let stored = row.value(of: field)
            if stored == .null { return nil }
            return values.contains { Self.compare(stored, $0) == 0 }
        case .regex(let field, let pattern, let options):
            guard case .text(let text) = row.value(of: field) else { return nil }
            return RegexMatcher.shared.matches(text, pattern: pattern, options: options)
        }
    }

    /// -1, 0 or 1, or `nil` when either side is NULL. Numbers sort before text, as in SQLite.
    static func compare(_ left: SQLValue, _ right: SQLValue) -> Int? {
        switch (left.number, right.number, left, right) {
        case (let a?, let b?, _, _): return a < b ? -1 : (a > b ? 1 : 0)
        case (_, _, .text(let a), .text(let b)):
            if a.utf8.elementsEqual(b.utf8) { return 0 }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
        case (_, _, .null, _), (_, _, _, .null): return nil
        case (_?, nil, _, _): return -1
        default: return 1
        }
    }
}

extension SQLValue {
    fileprivate var number: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }
}

extension StoredLocation {
    /// A field's value as the database holds it (a missing field is NULL).
    package func value(of field: LocationField) -> SQLValue {
        func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
        func real(_ value: Double?) -> SQLValue { value.flatMap { $0.isNaN ? nil : SQLValue.real($0) } ?? .null }
        switch field {
        case .objectId: return .text(objectId)
        case .uniqueKey: return text(uniqueKey)
        case .firstName: return text(firstName)
        case .lastName: return text(lastName)
        case .mapString: return text(mapString)
        case .mediaURL: return text(mediaURL)
        case .latitude: return real(latitude)
        case .longitude: return real(longitude)
        case .createdAt: return .text(createdAt)
        case .updatedAt: return .text(updatedAt)
        }
    }
}

/// `$regex` in memory: the expressions compiled once (at most 256 kept), and each match bounded
/// in time as SQLite's `onthemap_regexp` is (`SQLiteQueryBudget`): ICU's progress callback stops
/// a backtracking match after `budget`, and a stopped match is unknown (no match).
final class RegexMatcher: Sendable {
    static let shared = RegexMatcher(budget: .milliseconds(50))

    let budget: Duration
    private let expressions = NIOLockedValueBox<[String: NSRegularExpression]>([:])

    init(budget: Duration) { self.budget = budget }

    func matches(_ text: String, pattern: String, options: String) -> Bool? {
        let key = options + "/" + pattern
        let expression: NSRegularExpression
        if let compiled = expressions.withLockedValue({ $0[key] }) {
            expression = compiled
        } else {
            guard let compiled = try? NSRegularExpression(pattern: pattern, options: RegexOptions.parse(options)) else {
                return nil
            }
            expressions.withLockedValue {
                if $0.count >= 256 { $0.removeAll() }
                $0[key] = compiled
            }
            expression = compiled
        }
        let deadline = ContinuousClock.now + budget
        var found = false
        var stopped = false
        expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) {
            result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
            } else if ContinuousClock.now > deadline {
                stopped = true
                stop.pointee = true
            }
        }
        return stopped ? nil : found
    }
}
