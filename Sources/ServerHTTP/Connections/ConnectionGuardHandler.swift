import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Per connection: registers it with the `ConnectionLimiter` and bounds each request in time.
///
/// A request is in flight from its head until both its last byte has been read and its
/// response's last byte has been written; if that takes longer than `requestTimeout` (a body
/// trickled a byte at a time, a client that does not read its answer) the connection is closed.
/// Time with no request in flight (keep-alive, or headers trickled before the head is complete)
/// is bounded by Hummingbird's own idle timeout (`serve --idle-timeout`).
package final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPRequestPart
    package typealias InboundOut = HTTPRequestPart
    package typealias OutboundIn = HTTPResponsePart
    package typealias OutboundOut = HTTPResponsePart

    private let limiter: ConnectionLimiter
    private let requestTimeout: TimeAmount
    private var id: Int?
    private var heads = 0
    private var readEnds = 0
    private var writeEnds = 0
    /// When the request in flight must be done; nil with none in flight.
    private var deadline: NIODeadline?
    /// At most one timer, due at or before `deadline`. A request re-arms only `deadline`, and a
    /// timer that finds a later one waits again: no timer is made and cancelled per request.
    private var timer: Scheduled<Void>?

    package init(limiter: ConnectionLimiter, requestTimeout: TimeAmount) {
        self.limiter = limiter
        self.requestTimeout = requestTimeout
    }

    private var isBusy: Bool { readEnds < heads || writeEnds < heads }

    package func handlerAdded(context: ChannelHandlerContext) {
        id = limiter.open(context.channel)
        if id == nil { context.close(promise: nil) }
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        deadline = nil
        if let id { limiter.closed(id) }
        id = nil
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            let wasBusy = isBusy
            heads += 1
            if !wasBusy {
                if let id { limiter.busy(id) }
                arm(context)
            }
        case .end:
            readEnds += 1
            settle(context)
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.assumeIsolated().whenComplete { [self] _ in
            writeEnds += 1
            if isBusy { arm(context) }  // the next pipelined request gets its own time
            settle(context)
        }
        context.write(data, promise: written)
    }

    /// Back to idle once every started request has been read and answered.
    private func settle(_ context: ChannelHandlerContext) {
        guard !isBusy else { return }
        deadline = nil
        if let id { limiter.idle(id) }
    }

    private func arm(_ context: ChannelHandlerContext) {
        let due = NIODeadline.now() + requestTimeout
        deadline = due
        if timer == nil { wake(context, at: due) }
    }

    /// Closes the connection if its request is still in flight at its deadline.
    private func wake(_ context: ChannelHandlerContext, at due: NIODeadline) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
            timer = nil
            guard let deadline else { return }
            if deadline <= .now() {
                context.close(promise: nil)
            } else {
                wake(context, at: deadline)
            }
        }
    }
}
