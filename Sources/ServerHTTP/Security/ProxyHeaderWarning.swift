import Hummingbird
import Synchronization

/// Without `--trust-proxy`, a loopback or private peer that sends `X-Forwarded-For` is most
/// likely a reverse proxy — whose clients then all count as its one address for the login and
/// sign-up limits. Says so in the log, once per server; answers nothing differently.
package final class ProxyHeaderWarning: Sendable {
    private let warned = Atomic<Bool>(false)

    package init() {}

    /// Looks at one request (`RequestRulesMiddleware` calls it for each).
    package func notice(_ request: Request, context: AppRequestContext) {
        if !warned.load(ordering: .relaxed), request.headers[.xForwardedFor] != nil,
            let peer = context.remoteAddress?.ipAddress, ClientAddress.isLoopbackOrPrivate(peer),
            !warned.exchange(true, ordering: .relaxed)
        {
            context.logger.warning(
                "A request from \(peer) carries X-Forwarded-For, but --trust-proxy is off: if a reverse proxy sends it, every client behind it shares one address for the login and sign-up limits. Start with --trust-proxy.")
        }
    }
}
