/// Compiles a `ListQuery` to parameterised SQL. Values are always bound, never interpolated;
/// column names come from `LocationField`, never from the request.
package struct SQLCompiler {
    /// The databases this compiles for: they differ in placeholders and regular expressions.
    package enum Dialect {
        /// `?` placeholders; `$regex` through the `onthemap_regexp` function SQLiteStorage registers.
        case sqlite
        /// `$n` placeholders; `$regex` through the `~` operator with embedded options.
        case postgres
    }

    var dialect: Dialect = .sqlite
    package private(set) var binds: [SQLValue] = []
    /// The rows the caller may see: the only rows a `$regex` of theirs runs on.
    private var visibility: RowVisibility = .all

    package init(dialect: Dialect = .sqlite) { self.dialect = dialect }

    /// The whole `WHERE` of `query`: the rows its caller may see, then its predicate. Every
    /// `$regex` in the predicate is also guarded by that visibility inside a `CASE`, which both
    /// databases evaluate lazily, so a caller's pattern never runs on a row hidden from them,
    /// whatever order the planner gives the `AND`'s terms: how long a pattern takes on a hidden
    /// row would tell its text (Docs/Access.md). The predicate's other terms stay plain, so
    /// indexes still serve them.
    package mutating func whereCondition(_ query: ListQuery) -> String {
        visibility = query.visibility
        let visible = visibleRows()  // first: SQLite numbers `?` in the order they are written
        let predicate = condition(query.predicate)
        return visible.map { "\($0) AND (\(predicate))" } ?? predicate
    }

    private mutating func visibleRows() -> String? {
        AccessSQL.condition(visibility) { bind(.text($0)) }
    }

    mutating func bind(_ value: SQLValue) -> String {
        binds.append(value)
        switch dialect {
        case .sqlite: return "?"
        case .postgres: return "$\(binds.count)"
        }
    }

    private mutating func condition(_ predicate: Predicate) -> String {
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
            guard let visible = visibleRows() else { return regex(field, pattern, options) }
            return "CASE WHEN \(visible) THEN \(regex(field, pattern, options)) ELSE 1 = 0 END"
        }
    }

    private mutating func regex(_ field: LocationField, _ pattern: String, _ options: String) -> String {
        switch dialect {
        case .sqlite:
            return "onthemap_regexp(\(field.column), \(bind(.text(pattern))), \(bind(.text(options))))"
        case .postgres:
            // PostgreSQL's embedded options: i and x as in Parse; `w` makes ^ and $ match at
            // line breaks (Parse's m). Its `.` already matches a newline (Parse's s).
            let flags = options.compactMap { letter -> Character? in
                switch letter {
                case "i", "x": return letter
                case "m": return "w"
                default: return nil
                }
            }
            let prefixed = flags.isEmpty ? pattern : "(?\(String(flags)))" + pattern
            return "\(field.column) ~ \(bind(.text(prefixed)))"
        }
    }

    /// `ORDER BY` with objectId as the last key, so pages are stable and `-updatedAt` is served
    /// by the `(updated_at, object_id)` index.
    package static func orderBy(_ keys: [ListQuery.SortKey]) -> String {
        var keys = keys
        if !keys.contains(where: { $0.field == .objectId }) {
            keys.append(.init(field: .objectId, descending: keys.first?.descending ?? false))
        }
        return "ORDER BY " + keys.map { "\($0.field.column) \($0.descending ? "DESC" : "ASC")" }.joined(separator: ", ")
    }
}
