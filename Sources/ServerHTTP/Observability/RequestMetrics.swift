import Dispatch
import HTTPTypes
import Hummingbird
import Metrics
import NIOConcurrencyHelpers

/// Counts every request by route, method and status, times it, and counts the requests in
/// flight: the metrics of Hummingbird's `MetricsMiddleware`, under the same names and labels
/// (`hb_requests`, `http_server_request_duration`, `hb_request_errors`,
/// `http_server_active_requests`; Docs/Operations.md). The server's one middleware
/// (`RequestRulesMiddleware`) calls `begin` as a request arrives and `record` once its answer is
/// ready.
///
/// Hummingbird's middleware records them after the body has been written, by wrapping the body
/// in a closure; a wrapped body loses the response writer's fast path (head, body and end in one
/// write) and costs two more hops to the connection's event loop and one more `write` system
/// call per response. Recording when the answer is ready leaves the body as it is, so a request's
/// time is the time to make its answer (writing a ready answer to loopback takes microseconds).
package final class RequestMetrics: Sendable {
    /// A request in flight: counted in `http_server_active_requests` until `record`.
    package struct InFlight {
        let active: Meter
        let method: HTTPRequest.Method
        let start: UInt64
    }

    package init() {}

    package func begin(_ method: HTTPRequest.Method) -> InFlight {
        let active = self.active(method)
        active.increment()
        return InFlight(active: active, method: method, start: DispatchTime.now().uptimeNanoseconds)
    }

    /// Counts the answer under its route template (`nil`: no route matched) and status; a 4xx or
    /// 5xx answer also counts in `hb_request_errors`.
    package func record(_ request: InFlight, route: String?, status: HTTPResponse.Status) {
        request.active.decrement()
        let route = route ?? (status == .notFound ? "NotFound" : "Unknown")
        let endpoint = self.endpoint(.init(route: route, method: request.method, status: status))
        endpoint.requests.increment()
        endpoint.duration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - request.start)
        endpoint.errors?.increment()
    }

    // The metric handles of each method and each (route, method, status), made once: swift-metrics
    // would otherwise look the labels up in the factory on every request.
    struct EndpointID: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: HTTPResponse.Status
    }

    struct Endpoint: Sendable {
        let requests: Counter
        let duration: Metrics.Timer
        /// Only for a 4xx or 5xx status: no `hb_request_errors` line for answers that are none.
        let errors: Counter?

        init(_ id: EndpointID) {
            let labels = [
                ("http.route", id.route), ("http.request.method", id.method.rawValue),
                ("http.response.status_code", String(id.status.code)),
            ]
            requests = Counter(label: "hb.requests", dimensions: labels)
            duration = Metrics.Timer(
                label: "http.server.request.duration", dimensions: labels, preferredDisplayUnit: .seconds)
            errors =
                id.status.code >= 400
                ? Counter(
                    label: "hb.request.errors",
                    dimensions: [
                        ("http.route", id.route), ("http.request.method", id.method.rawValue),
                        ("error.type", String(id.status.code)),
                    ]) : nil
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
