import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Logs one structured line per request, after it is answered: method, route template, status,
/// duration and client address, with Hummingbird's request id in the metadata
/// (`hb.request.id`), which is also sent back as `X-Request-Id`.
///
/// It never logs the query string, headers, cookies or bodies: passwords, session ids and
/// XSRF tokens travel there.
package struct AccessLogMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext
    let level: Logger.Level
    let trustProxy: Bool

    package init(level: Logger.Level, trustProxy: Bool) {
        self.level = level
        self.trustProxy = trustProxy
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            var response = try await next(request, context)
            response.headers[.xRequestID] = context.id
            log(request, context: context, status: response.status, since: start)
            return response
        } catch let error as any HTTPResponseError {
            log(request, context: context, status: error.status, since: start)
            var response = try error.response(from: request, context: context)
            response.headers[.xRequestID] = context.id
            return response
        }
    }

    private func log(_ request: Request, context: Context, status: HTTPResponse.Status, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.log(
            level: level, "request",
            metadata: [
                "http.method": .string(request.method.rawValue),
                "http.route": .string(context.endpointPath ?? "unmatched"),
                "http.status": .stringConvertible(Int(status.code)),
                "duration_ms": .string(String(format: "%.2f", milliseconds)),
                "client.address": .string(context.clientAddress(request, trustProxy: trustProxy) ?? "unknown"),
            ])
    }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-Id")!
}
