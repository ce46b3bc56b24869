import ClassRules
import HTTPTypes

extension WriteRefusal {
    /// The wire answer of a refused write.
    var failure: APIFailure {
        switch self {
        case .access(let refusal): return refusal.failure
        case .notFound: return APIFailure.objectNotFound()
        case .invalid(let message): return APIFailure.validation(message)
        case .rowLimit: return APIFailure.forbidden(description)
        case .tooManyWrites(let seconds):
            var failure = APIFailure.parse(.tooManyRequests, 155, description)
            failure.headers[.retryAfter] = String(seconds)
            return failure
        }
    }
}
