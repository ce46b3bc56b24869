import NIOCore
import NIOWebSocket

/// RFC 6455 §5.1–5.2 for the frames a client sends, each checked as it arrives (before the
/// aggregator joins fragments): a client must mask every frame, and no extension was agreed, so
/// every RSV bit must be 0. A frame that breaks either fails the WebSocket: it is dropped and
/// `Violation` goes up the pipeline, where `LiveQuerySocketHandler` closes with 1002.
final class LiveQueryFrameRules: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    enum Violation: Error, Equatable {
        case unmasked
        case reservedBits
    }

    private var failed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        let frame = unwrapInboundIn(data)
        let violation: Violation? =
            frame.maskKey == nil ? .unmasked : (frame.rsv1 || frame.rsv2 || frame.rsv3 ? .reservedBits : nil)
        if let violation {
            failed = true
            context.fireErrorCaught(violation)
            return
        }
        context.fireChannelRead(data)
    }
}
