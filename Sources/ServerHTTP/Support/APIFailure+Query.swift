import HTTPTypes
import Hummingbird
import ServerQuery
import ServerStorage

/// The answers of a list query that would cost the server too much, or that the query language
/// refuses (`QueryRefusal`, ServerQuery).
extension APIFailure {
    /// 400 `{"code":124,"error":"query too expensive"}`: over a `where` cap (`WhereLimits`) or
    /// over the query's time budget (`serve --query-timeout`). Sending it again will not help.
    package static func queryTooExpensive() -> APIFailure { APIFailure(QueryRefusal.queryTooExpensive()) }

    /// The query language's refusal as the API's answer: 400 with Parse's code, or 503 with
    /// `Retry-After` for one that may be sent again later.
    package init(_ refusal: QueryRefusal) {
        self = .parse(refusal.retryAfterSeconds == nil ? .badRequest : .serviceUnavailable, refusal.code, refusal.message)
        if let seconds = refusal.retryAfterSeconds { headers[.retryAfter] = String(seconds) }
    }

    /// A storage's refusal of a list query as the API's answer: 124 past the time budget, 102
    /// for a `$regex` the database cannot read.
    package init(_ failure: QueryFailure) {
        self.init(QueryRefusal(failure))
    }
}

/// A refusal thrown through a route (the expensive-query gate's) is answered as its `APIFailure`.
extension QueryRefusal: HTTPResponseError {
    package var status: HTTPResponse.Status { APIFailure(self).status }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try APIFailure(self).response(from: request, context: context)
    }
}
