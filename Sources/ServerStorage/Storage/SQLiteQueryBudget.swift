import Foundation
import GRDB
import GRDBSQLite
import NIOConcurrencyHelpers

/// The time budget of the list query running on one SQLite connection, and the `$regex`
/// expressions it compiled (once per query, not once per row).
///
/// Two mechanisms bound the work, because neither alone would:
/// - SQLite's progress handler, called every 1,000 virtual-machine steps, interrupts the
///   statement once the deadline has passed (scans, sorts, counts, the calls between rows);
/// - a progress handler cannot stop one long call of a user function, and ICU's backtracking
///   matcher can spend exponential time in a single call (`^(a+)+$` against `aaa…a!`). So
///   `onthemap_regexp` matches through `enumerateMatches` with `.reportProgress`: Foundation then
///   installs ICU's match callback (`uregex_setMatchCallback`), which ICU calls every few
///   thousand backtracking steps, and the block stops the match once the deadline has passed.
///   That bounds every pattern by time, which refusing "nested quantifiers" (other exponential
///   shapes slip through, harmless ones are refused) or capping the input (fields are at most
///   1 KB already; 30 characters suffice for `^(a+)+$`) would not; and it needs no import of
///   Foundation's private ICU module.
///
/// One exists per connection (registered in `prepareDatabase`); it is only touched on the
/// thread that runs that connection's statements, hence `@unchecked Sendable`.
final class SQLiteQueryBudget: @unchecked Sendable {
    /// Thrown by the regex function when the deadline passed inside a match.
    struct Exhausted: Error {}

    private var deadline: UInt64?
    private var exhausted = false
    private var expressions: [String: NSRegularExpression] = [:]

    /// Installs the progress handler and `onthemap_regexp(text, pattern, options)` on `db`.
    func install(on db: Database) {
        db.add(
            function: DatabaseFunction("onthemap_regexp", argumentCount: 3, pure: true) { [self] values in
                guard let text = String.fromDatabaseValue(values[0]), let pattern = String.fromDatabaseValue(values[1]) else {
                    return false
                }
                return try matches(text, pattern: pattern, options: String.fromDatabaseValue(values[2]) ?? "")
            })
        sqlite3_progress_handler(
            db.sqliteConnection, 1000,
            { context in
                guard let context else { return 0 }
                return Unmanaged<SQLiteQueryBudget>.fromOpaque(context).takeUnretainedValue().isExhausted() ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs `body` (the statements of one query) with `timeout` to spend.
    /// - Throws: `QueryFailure.tooExpensive` when the budget ran out.
    func run<T>(timeout: Duration, _ body: () throws -> T) throws -> T {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, nanoseconds))
        exhausted = false
        defer {
            // Before GRDB ends the read transaction, which the handler must not interrupt.
            deadline = nil
            expressions.removeAll()
        }
        do {
            return try body()
        } catch let error as DatabaseError where exhausted || error.resultCode == .SQLITE_INTERRUPT {
            throw QueryFailure.tooExpensive
        }
    }

    private func isExhausted() -> Bool {
        guard let deadline else { return false }
        if !exhausted, DispatchTime.now().uptimeNanoseconds > deadline { exhausted = true }
        return exhausted
    }

    private func matches(_ text: String, pattern: String, options: String) throws -> Bool {
        let key = options + "/" + pattern
        let expression: NSRegularExpression
        if let compiled = expressions[key] {
            expression = compiled
        } else {
            expression = try NSRegularExpression(pattern: pattern, options: RegexOptions.parse(options))
            expressions[key] = expression
        }
        var found = false
        var stopped = false
        expression.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) {
            result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
            } else if self.isExhausted() {
                stopped = true
                stop.pointee = true
            }
        }
        if stopped { throw Exhausted() }
        return found
    }
}

/// The budget of each open connection of a pool, found by the connection.
final class SQLiteQueryBudgets: Sendable {
    private let budgets = NIOLockedValueBox<[UInt: SQLiteQueryBudget]>([:])

    /// Called from `prepareDatabase` for every new connection.
    func install(on db: Database) {
        let budget = SQLiteQueryBudget()
        budget.install(on: db)
        budgets.withLockedValue { $0[Self.key(db)] = budget }
    }

    func budget(for db: Database) -> SQLiteQueryBudget {
        budgets.withLockedValue { budgets in
            if let budget = budgets[Self.key(db)] { return budget }
            let budget = SQLiteQueryBudget()  // never happens: every connection is prepared
            budget.install(on: db)
            budgets[Self.key(db)] = budget
            return budget
        }
    }

    private static func key(_ db: Database) -> UInt { UInt(bitPattern: db.sqliteConnection) }
}
