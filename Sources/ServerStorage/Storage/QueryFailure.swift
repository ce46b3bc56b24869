/// Why a storage gave up on a list query. The API answers each with its wire error
/// (`APIFailure(_:)`, 400 code 124 or 102); the storage knows no HTTP.
package enum QueryFailure: Error, Sendable, Hashable {
    /// The query spent its time budget (`serve --query-timeout`).
    case tooExpensive
    /// The database refused a `$regex` as no valid regular expression.
    case invalidRegex
}
