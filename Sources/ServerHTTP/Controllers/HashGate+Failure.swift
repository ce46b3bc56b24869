import HTTPTypes
import Hummingbird
import ServerSessions

/// A password hash refused by the process's gate (login, decoy, sign-up, deletion's check) is
/// answered 503 `{"status":503,"error":"The server is busy. Try again in 1 second."}` with
/// `Retry-After: 1`, Udacity-style, wherever it is thrown.
extension HashGate.Busy: HTTPResponseError {
    var failure: APIFailure {
        var failure = APIFailure.udacity(.serviceUnavailable, Self.message)
        failure.headers[.retryAfter] = String(Self.retryAfterSeconds)
        return failure
    }

    package var status: HTTPResponse.Status { failure.status }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try failure.response(from: request, context: context)
    }
}
