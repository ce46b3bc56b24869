/// A parsed Parse `where` clause, ready to be compiled to parameterised SQL.
package indirect enum Predicate: Sendable, Hashable {
    case always
    case never
    case and([Predicate])
    case or([Predicate])
    case not(Predicate)
    case compare(LocationField, Comparison, SQLValue)
    case isNull(LocationField, Bool)
    case inList(LocationField, [SQLValue])
    case regex(LocationField, pattern: String, options: String)

    package enum Comparison: String, Sendable {
        case equal = "="
        case notEqual = "<>"
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// `self AND other`, flattening trivial cases.
    package func and(_ other: Predicate) -> Predicate {
        switch (self, other) {
        case (.always, _): return other
        case (_, .always): return self
        default: return .and([self, other])
        }
    }
}
