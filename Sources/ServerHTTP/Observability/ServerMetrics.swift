import CoreMetrics
import Metrics
import Prometheus

/// The process's Prometheus registry. swift-metrics can be bootstrapped once per process, so the
/// first server that asks for metrics bootstraps it here and every later one shares the registry.
/// Servers that do not ask (the embedded one, tests) never touch the global metrics system.
public enum ServerMetrics {
    /// Bootstraps swift-metrics with a Prometheus factory on first use.
    public static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Latency buckets from 1 ms to 10 s: the targets are in milliseconds.
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(10),
        ]
        MetricsSystem.bootstrap(factory)
        return registry
    }()

    /// The text exposition format of every metric recorded so far.
    package static func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}
