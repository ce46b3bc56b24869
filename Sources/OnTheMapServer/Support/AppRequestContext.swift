import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's core context plus the peer's address
/// (for per-address limits and logs).
struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
