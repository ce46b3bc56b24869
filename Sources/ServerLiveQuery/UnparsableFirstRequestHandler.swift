import NIOCore
import NIOHTTP1

/// Answers 400 and closes a connection whose first request cannot be parsed.
///
/// Until the upgrade decision (the end of a connection's first request head) the pipeline is
/// NIO's upgradable HTTP pipeline without its error handler (Hummingbird answers parse errors, but
/// only once the connection is HTTP). A parser error before then reached nobody: the upgrade
/// never decided, and the connection — released by `FirstRequestGuard` as soon as "\r\n\r\n" went
/// by — stayed open, uncounted and without a timer, for ever (`GARBAGE\r\n\r\n` held one for
/// minutes; a TLS ClientHello until the idle timeout). This sits at the end of that pipeline and
/// acts only while the upgrade handler is still in it; after the decision errors pass on.
final class UnparsableFirstRequestHandler<Upgrade: Sendable>: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    init() {}

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let sync = context.pipeline.syncOperations
        guard error is HTTPParserError,
            (try? sync.context(handlerType: NIOTypedHTTPServerUpgradeHandler<Upgrade>.self)) != nil
        else {
            context.fireErrorCaught(error)
            return
        }
        // Written from the response encoder's place, so that the raw bytes go straight to the socket.
        if let encoder = try? sync.context(handlerType: HTTPResponseEncoder.self) {
            let answer = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
            encoder.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: answer)), promise: nil)
        }
        context.close(promise: nil)
    }
}
