import Foundation
import HTTPTypes
import Hummingbird
import OnTheMapModels

/// An error that knows the exact response the original services gave for it.
///
/// Two families: Parse-style (`{"code":N,"error":"…"}`, StudentLocation routes) and
/// Udacity-style (`{"status":N,"error":"…"}` behind the `)]}'` prefix, session and users routes).
package struct APIFailure: HTTPResponseError {
    package enum Body: Sendable {
        case parse(code: Int, message: String)
        case udacity(parameter: String?, message: String)
        case plain([String: String])
    }

    package let status: HTTPResponse.Status
    package let body: Body
    /// Extra response headers (`Retry-After`).
    var headers: HTTPFields = [:]

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        switch body {
        case .parse(let code, let message):
            return JSONResponse.make(status: status, ParseErrorBody(code: code, error: message), headers: headers)
        case .udacity(let parameter, let message):
            return JSONResponse.make(
                status: status, UdacityErrorBody(status: Int(status.code), error: message, parameter: parameter),
                prefixed: true, headers: headers)
        case .plain(let fields):
            return JSONResponse.make(status: status, fields, headers: headers)
        }
    }

    // MARK: Parse codes (Parse Server's error codes)

    static func objectNotFound() -> APIFailure { parse(.notFound, 101, "Object not found.") }
    package static func invalidQuery(_ message: String) -> APIFailure { parse(.badRequest, 102, message) }
    static func invalidKeyName(_ message: String) -> APIFailure { parse(.badRequest, 105, message) }
    static func invalidJSON(_ message: String = "invalid JSON") -> APIFailure { parse(.badRequest, 107, message) }
    static func incorrectType(_ message: String) -> APIFailure { parse(.badRequest, 111, message) }
    package static func forbidden(_ message: String) -> APIFailure { parse(.forbidden, 119, message) }
    static func validation(_ message: String) -> APIFailure { parse(.badRequest, 142, message) }
    static func invalidSession() -> APIFailure {
        parse(.forbidden, 209, "A valid session is required: send Authorization: Bearer <session id>.")
    }
    static func bodyTooLarge(limit: Int) -> APIFailure {
        APIFailure(status: .contentTooLarge, body: .plain(["error": "request body larger than \(limit) bytes"]))
    }
    static func unauthorized() -> APIFailure { APIFailure(status: .forbidden, body: .plain(["error": "unauthorized"])) }

    static func parse(_ status: HTTPResponse.Status, _ code: Int, _ message: String) -> APIFailure {
        APIFailure(status: status, body: .parse(code: code, message: message))
    }

    // MARK: Session API

    static func udacity(_ status: HTTPResponse.Status, _ message: String, parameter: String? = nil) -> APIFailure {
        APIFailure(status: status, body: .udacity(parameter: parameter, message: message))
    }
}
