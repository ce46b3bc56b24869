import HummingbirdCore
import Logging
import NIOCore

/// Guards a connection from its accept until the end of its first request head, where the
/// WebSocket upgrade decision is made: hummingbird-websocket adds the HTTP handlers (and so
/// `ConnectionGuardHandler` and Hummingbird's idle timeout) only after that head, so without this
/// a connection that says nothing, or trickles its headers, would be neither counted nor timed.
///
/// It registers the connection with the `ConnectionLimiter` as idle (the longest-idle are evicted
/// at the cap), closes it if the head has not ended within `idleTimeout`, and once the head's
/// blank line has passed, hands over: it leaves the limiter and the pipeline (the HTTP handlers,
/// or LiveQuery's own limits, take over).
final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limiter: ConnectionLimiter
    private let idleTimeout: TimeAmount
    private var registration: ConnectionLimiter.Registration?
    private var deadline: Scheduled<Void>?
    /// The last bytes seen, to find "\r\n\r\n" across reads.
    private var tail: [UInt8] = []
    private var done = false

    init(limiter: ConnectionLimiter, idleTimeout: TimeAmount) {
        self.limiter = limiter
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        registration = limiter.open(context.channel)
        guard registration != nil else {
            context.close(promise: nil)
            return
        }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: idleTimeout) { context.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !done {
            let buffer = unwrapInboundIn(data)
            tail += buffer.readableBytesView
            if tail.firstRange(of: [13, 10, 13, 10]) != nil {
                done = true
                release()
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
            if tail.count > 3 { tail.removeFirst(tail.count - 3) }
        }
        context.fireChannelRead(data)
    }

    private func release() {
        deadline?.cancel()
        deadline = nil
        if let registration { limiter.closed(registration) }
        registration = nil
    }
}

/// A server child channel with `FirstRequestGuard` at the front of its pipeline.
package struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    package typealias Value = Inner.Value

    let inner: Inner
    let limiter: ConnectionLimiter
    let idleTimeout: TimeAmount

    package init(inner: Inner, limiter: ConnectionLimiter, idleTimeout: TimeAmount) {
        self.inner = inner
        self.limiter = limiter
        self.idleTimeout = idleTimeout
    }

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(FirstRequestGuard(limiter: limiter, idleTimeout: idleTimeout))
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    package func handle(value: Value, logger: Logger) async { await inner.handle(value: value, logger: logger) }
}
