/// The most work one request's `where` may ask for (every `where` parameter of the request, and
/// each `uniqueKey` parameter as a clause, counted together). Past any of these the query is refused with 400
/// `{"code":124,"error":"query too expensive"}` (`QueryRefusal.queryTooExpensive`) before it
/// reaches the database.
///
/// Why these numbers: the apps send one clause (`uniqueKey`), and a hand-written query rarely
/// needs more than a handful; the caps keep the SQL small (far below SQLite's 32,766 bound
/// values) and bound the per-row cost, which grows with every clause and most with every regex.
package struct WhereLimits: Sendable {
    /// Constraints in all (each operator on a field, each plain equality).
    static let maxClauses = 32
    /// `$regex` constraints in all: each runs once per row it is tried on.
    static let maxRegexes = 4
    /// Items of one `$or`, `$and` or `$nor`.
    static let maxBranches = 16
    /// `$or`/`$and`/`$nor` nested inside one another.
    static let maxNesting = 4
    /// `$in`/`$nin` values in all (one `$in` also takes at most 1,000, code 102, as before).
    static let maxValues = 2000

    private(set) var clauses = 0
    private(set) var regexes = 0
    private(set) var values = 0

    package init() {}

    package mutating func countClause() throws(QueryRefusal) {
        clauses += 1
        guard clauses <= Self.maxClauses else { throw .queryTooExpensive() }
    }

    mutating func countRegex() throws(QueryRefusal) {
        regexes += 1
        guard regexes <= Self.maxRegexes else { throw .queryTooExpensive() }
    }

    mutating func countValues(_ count: Int) throws(QueryRefusal) {
        values += count
        guard values <= Self.maxValues else { throw .queryTooExpensive() }
    }

    static func checkBranches(_ count: Int, depth: Int) throws(QueryRefusal) {
        guard count <= maxBranches, depth <= maxNesting else { throw .queryTooExpensive() }
    }
}
