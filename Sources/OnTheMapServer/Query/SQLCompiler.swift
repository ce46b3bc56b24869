/// Compiles a `ListQuery` to parameterised SQL. Values are always bound, never interpolated;
/// column names come from `LocationField`, never from the request.
struct SQLCompiler {
    /// How the database writes its n-th placeholder (`?` for SQLite, `$n` for PostgreSQL).
    var placeholder: (Int) -> String = { _ in "?" }
    /// The SQL of a call to the regular-expression function for (column, pattern, options).
    var regex: (String, String, String) -> String = { column, pattern, options in
        "onthemap_regexp(\(column), \(pattern), \(options))"
    }
    private(set) var binds: [SQLValue] = []

    mutating func bind(_ value: SQLValue) -> String {
        binds.append(value)
        return placeholder(binds.count)
    }

    mutating func condition(_ predicate: Predicate) -> String {
        switch predicate {
        case .always: return "1 = 1"
        case .never: return "1 = 0"
        case .and(let parts): return "(" + parts.map { condition($0) }.joined(separator: " AND ") + ")"
        case .or(let parts): return "(" + parts.map { condition($0) }.joined(separator: " OR ") + ")"
        case .not(let inner): return "NOT COALESCE(\(condition(inner)), 1 = 0)"
        case .compare(let field, let comparison, let value):
            return "\(field.column) \(comparison.rawValue) \(bind(value))"
        case .isNull(let field, let isNull):
            return "\(field.column) IS \(isNull ? "" : "NOT ")NULL"
        case .inList(let field, let values):
            return "\(field.column) IN (" + values.map { bind($0) }.joined(separator: ", ") + ")"
        case .regex(let field, let pattern, let options):
            let patternPlaceholder = bind(.text(pattern))
            let optionsPlaceholder = bind(.text(options))
            return regex(field.column, patternPlaceholder, optionsPlaceholder)
        }
    }

    /// `ORDER BY` with objectId as the last key, so pages are stable and `-updatedAt` is served
    /// by the `(updated_at, object_id)` index.
    static func orderBy(_ keys: [ListQuery.SortKey]) -> String {
        var keys = keys
        if !keys.contains(where: { $0.field == .objectId }) {
            keys.append(.init(field: .objectId, descending: keys.first?.descending ?? false))
        }
        return "ORDER BY " + keys.map { "\($0.field.column) \($0.descending ? "DESC" : "ASC")" }.joined(separator: ", ")
    }
}
