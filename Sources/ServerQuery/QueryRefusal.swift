import ServerStorage

/// A query refused as Parse refuses one: Parse's error code and message. The REST API answers it
/// as `{"code":N,"error":"…"}` (400; 503 with `Retry-After` when `retryAfterSeconds` is set), and
/// LiveQuery as an `error` message with the same code and text.
package struct QueryRefusal: Error, Sendable, Hashable {
    package let code: Int
    package let message: String
    /// Set when the same query may be sent again later: it was not refused for what it asks, but
    /// because the server had no room for it then.
    package let retryAfterSeconds: Int?

    package init(code: Int, _ message: String, retryAfterSeconds: Int? = nil) {
        self.code = code
        self.message = message
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// Parse's `INVALID_QUERY`.
    static func invalidQuery(_ message: String) -> QueryRefusal { QueryRefusal(code: 102, message) }
    /// Parse's `INVALID_KEY_NAME`.
    static func invalidKeyName(_ message: String) -> QueryRefusal { QueryRefusal(code: 105, message) }
    /// Parse's `INVALID_JSON`.
    static func invalidJSON(_ message: String) -> QueryRefusal { QueryRefusal(code: 107, message) }

    /// Parse's `TIMEOUT` code, which Parse documents as "the request is too expensive to run".
    static let queryTooExpensiveCode = 124

    /// `{"code":124,"error":"query too expensive"}`: over a `where` cap (`WhereLimits`) or over
    /// the query's time budget (`serve --query-timeout`). Sending it again will not help.
    package static func queryTooExpensive() -> QueryRefusal { QueryRefusal(code: queryTooExpensiveCode, "query too expensive") }

    /// A storage's refusal of a list query: 124 past the time budget, 102 for a `$regex` the
    /// database cannot read.
    package init(_ failure: QueryFailure) {
        switch failure {
        case .tooExpensive: self = .queryTooExpensive()
        case .invalidRegex: self = .invalidQuery("bad $regex: not a valid regular expression")
        }
    }
}
