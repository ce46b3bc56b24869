import Dispatch
import HTTPTypes
import Hummingbird
import Metrics
import NIOConcurrencyHelpers

/// Counts every request by route, method and status, times it, and counts the requests in
/// flight: the metrics of Hummingbird's `MetricsMiddleware`, under the same names and labels
/// (`hb_requests`, `http_server_request_duration`, `hb_request_errors`,
/// `http_server_active_requests`; Docs/Operations.md).
///
/// Hummingbird's middleware records them after the body has been written, by wrapping the body
/// in a closure; a wrapped body loses the response writer's fast path (head, body and end in one
/// write) and costs two more hops to the connection's event loop and one more `write` system
/// call per response. This one records when the answer is ready and leaves the body as it is,
/// so a request's time is the time to make its answer (writing a ready answer to loopback takes
/// microseconds).
package struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let metrics = RequestMetrics()

    package init() {}

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = metrics.active(request.method)
        active.increment()
        defer { active.decrement() }
        do {
            let response = try await next(request, context)
            let route = context.endpointPath ?? "Unknown"
            let endpoint = metrics.endpoint(.init(route: route, method: request.method, status: response.status))
            endpoint.requests.increment()
            endpoint.duration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let route = context.endpointPath ?? "NotFound"
            let endpoint = metrics.endpoint(.init(route: route, method: request.method, status: status))
            endpoint.requests.increment()
            endpoint.errors.increment()
            throw error
        }
    }
}

/// The metric handles of each method and each (route, method, status), made once: swift-metrics
/// would otherwise look the labels up in the factory on every request.
private final class RequestMetrics: Sendable {
    struct EndpointID: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: HTTPResponse.Status
    }

    struct Endpoint: Sendable {
        let requests: Counter
        let duration: Metrics.Timer
        let errors: Counter

        init(_ id: EndpointID) {
            let labels = [
                ("http.route", id.route), ("http.request.method", id.method.rawValue),
                ("http.response.status_code", String(id.status.code)),
            ]
            requests = Counter(label: "hb.requests", dimensions: labels)
            duration = Metrics.Timer(
                label: "http.server.request.duration", dimensions: labels, preferredDisplayUnit: .seconds)
            errors = Counter(
                label: "hb.request.errors",
                dimensions: [
                    ("http.route", id.route), ("http.request.method", id.method.rawValue),
                    ("error.type", String(id.status.code)),
                ])
        }
    }

    private let meters = NIOLockedValueBox<[HTTPRequest.Method: Meter]>([:])
    private let endpoints = NIOLockedValueBox<[EndpointID: Endpoint]>([:])

    func active(_ method: HTTPRequest.Method) -> Meter {
        meters.withLockedValue { meters in
            if let meter = meters[method] { return meter }
            let labels = [("http.request.method", method.rawValue)]
            let meter = Meter(label: "http.server.active_requests", dimensions: labels)
            meters[method] = meter
            return meter
        }
    }

    func endpoint(_ id: EndpointID) -> Endpoint {
        endpoints.withLockedValue { endpoints in
            if let endpoint = endpoints[id] { return endpoint }
            let endpoint = Endpoint(id)
            endpoints[id] = endpoint
            return endpoint
        }
    }
}
