/// Why the write path refused a write. The HTTP API answers each with its wire error
/// (`WriteRefusal.failure`), the command line with its sentence.
package enum WriteRefusal: Error, Sendable, Hashable {
    /// The rule refused the caller (`Access`): no session, or not allowed.
    case access(AccessRefusal)
    /// No such row or account — or a row the caller may not see, which is answered the same.
    case notFound
    /// A value out of its bounds (a hide reason, say), in words for the writer.
    case invalid(String)
    /// The account already has its most rows (fair share).
    case rowLimit(Int)
    /// The account wrote too often this minute (fair share).
    case tooManyWrites(retryAfterSeconds: Int)

    package var description: String {
        switch self {
        case .access(.needsSession): return "Log in first."
        case .access(.forbidden(let message)): return message
        case .notFound: return "Not found."
        case .invalid(let message): return message
        case .rowLimit(let limit):
            return "This account already has \(limit) locations on the map, the most one account may have."
                + " Update or delete one of them."
        case .tooManyWrites(let seconds): return "Too many changes from this account. Try again in \(seconds) seconds."
        }
    }
}
