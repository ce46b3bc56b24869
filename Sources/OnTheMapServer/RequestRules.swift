import GRDB
import HTTPTypes
import Hummingbird
import NIOHTTP1
import ServerHTTP
import ServerStorage

/// What every request goes through before and after its route, in one middleware: the request
/// metrics (with `--metrics`), the warning about proxy headers (without `--trust-proxy`), the
/// trust rules (`TrustRules`: the XSRF pair; every answer marked private), and the error shield
/// (`ErrorShield`). Only the access log (`--log-requests`) is a middleware of its own, outside it.
///
/// Why one: each middleware is a layer of generic async calls in Hummingbird's responder chain,
/// about 3,000–4,000 instructions a request (callgrind, Docs/Benchmarks.md "Server load"), as
/// much as the rules themselves. The order is the one the separate middlewares had: the metrics
/// see every answer, the trust rules mark the shield's answers too.
struct RequestRulesMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let metrics: RequestMetrics?
    let proxyHeaders: ProxyHeaderWarning?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let metrics else { return try await answer(request, context: context, next: next) }
        let inFlight = metrics.begin(request.method)
        do {
            let response = try await answer(request, context: context, next: next)
            metrics.record(inFlight, route: context.endpointPath, status: response.status)
            return response
        } catch {
            // Only what `HTTPResponseError.response(from:context:)` itself throws (nothing today):
            // counted, and left to Hummingbird's own last answer.
            metrics.record(inFlight, route: context.endpointPath, status: .internalServerError)
            throw error
        }
    }

    /// The route's answer under the trust rules, every error made an answer (the shield's or the
    /// error's own), marked private.
    private func answer(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            proxyHeaders?.notice(request, context: context)
            try TrustRules.checkXSRF(request)
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            response = try ErrorShield.answer(error, to: request, context: context)
        }
        TrustRules.markPersonal(&response.headers)
        return response
    }
}

/// Answers a storage's `QueryFailure` with its wire error (400), a request whose HTTP/1.1 framing
/// broke while its body was read (a `Transfer-Encoding` other than chunked, a chunk size past
/// 64 bits: NIO's `HTTPParserError`) with a 400 — the client's fault, logged as no server error —
/// a database that cannot be reached (`StorageUnavailable`) with a 503 and `Retry-After`, and
/// turns any other error that is not already an HTTP answer into a 500 with no internals in it
/// (no stack trace, no SQL), and logs what it may: the error's type, and for a SQLite error its
/// code and message — never the statement (GRDB's description quotes it, with its arguments'
/// shape, and a request's `where` or `order` made it).
enum ErrorShield {
    static func loggable(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "")"
        }
        if let error = error as? any LoggableStorageError { return error.loggableDescription }
        return String(describing: type(of: error))
    }

    /// The answer to a route's error that is not an HTTP answer already; a `QueryFailure` answers
    /// as its `APIFailure`.
    static func answer(_ error: any Error, to request: Request, context: AppRequestContext) throws -> Response {
        switch error {
        case let failure as QueryFailure:
            return try APIFailure(failure).response(from: request, context: context)
        case let error as StorageUnavailable:
            context.logger.warning("database unavailable", metadata: ["path": "\(request.uri.path)", "error": "\(error.detail)"])
            var response = JSONResponse.make(
                status: .serviceUnavailable, ["code": "1", "error": "the database is unavailable; try again shortly"])
            response.headers[.retryAfter] = "1"
            return response
        case let error as HTTPParserError:
            context.logger.info("bad request framing", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            var response = JSONResponse.make(status: .badRequest, ["code": "1", "error": "bad request framing"])
            response.headers[.connection] = "close"  // the parser cannot find the next request
            return response
        default:
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(loggable(error))"])
            return JSONResponse.make(status: .internalServerError, ["code": "1", "error": "internal server error"])
        }
    }
}
