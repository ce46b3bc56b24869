import HTTPTypes
import ServerStorage

/// The answers of a list query that would cost the server too much.
extension APIFailure {
    /// Parse's `TIMEOUT` code, which Parse documents as "the request is too expensive to run".
    static let queryTooExpensiveCode = 124
    /// Parse's `REQUEST_LIMIT_EXCEEDED` code.
    static let queryCapacityCode = 155

    /// 400 `{"code":124,"error":"query too expensive"}`: over a `where` cap (`WhereLimits`) or
    /// over the query's time budget (`serve --query-timeout`). Sending it again will not help.
    package static func queryTooExpensive() -> APIFailure {
        parse(.badRequest, queryTooExpensiveCode, "query too expensive")
    }

    /// 503 `{"code":155,…}` with `Retry-After`: every slot for expensive queries is taken
    /// (`serve --expensive-queries`) and none freed within the wait.
    static func queryCapacity(retryAfterSeconds: Int) -> APIFailure {
        var failure = parse(.serviceUnavailable, queryCapacityCode, "too many expensive queries at once; retry later")
        failure.headers[.retryAfter] = String(retryAfterSeconds)
        return failure
    }

    /// A storage's refusal of a list query as the API's answer: 124 past the time budget, 102
    /// for a `$regex` the database cannot read.
    package init(_ failure: QueryFailure) {
        switch failure {
        case .tooExpensive: self = .queryTooExpensive()
        case .invalidRegex: self = .invalidQuery("bad $regex: not a valid regular expression")
        }
    }
}
