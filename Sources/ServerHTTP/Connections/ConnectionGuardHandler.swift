import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Per connection: registers it with the `ConnectionLimiter` and bounds each request in time.
///
/// A request is in flight from its head until its last byte has been read and its response's
/// last part has been handed to the socket's writes with the connection writable again (NIO
/// holds less than its high-water mark, 64 KiB, unsent); if that takes longer than
/// `requestTimeout` (a body trickled a byte at a time, a client that does not read a large
/// answer) the connection is closed. Time with no request in flight (keep-alive, headers
/// trickled before the head is complete, or a small answer the client does not read, which the
/// kernel's buffers hold) is bounded by Hummingbird's own idle timeout (`serve --idle-timeout`).
///
/// Per request it costs no lock, no promise and no timer (callgrind, Docs/Benchmarks.md
/// "Server load"): busy and idle are atomic stores into the connection's registration, and
/// the one timer per connection is re-armed only when it fires.
package final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPRequestPart
    package typealias InboundOut = HTTPRequestPart
    package typealias OutboundIn = HTTPResponsePart
    package typealias OutboundOut = HTTPResponsePart

    private let limiter: ConnectionLimiter
    private let requestTimeout: TimeAmount
    private var registration: ConnectionLimiter.Registration?
    private var heads = 0
    private var readEnds = 0
    private var writeEnds = 0
    /// An answer's last part was written while the connection could not take more: it is still
    /// in flight until the connection is writable again.
    private var answerQueued = false
    /// When the request in flight must be done; nil with none in flight.
    private var deadline: NIODeadline?
    /// At most one timer, due at or before `deadline`. A request re-arms only `deadline`, and a
    /// timer that finds a later one waits again: no timer is made and cancelled per request.
    private var timer: Scheduled<Void>?

    package init(limiter: ConnectionLimiter, requestTimeout: TimeAmount) {
        self.limiter = limiter
        self.requestTimeout = requestTimeout
    }

    /// A request started and not yet read to its end or not yet answered.
    private var hasRequestInFlight: Bool { readEnds < heads || writeEnds < heads }
    private var isBusy: Bool { hasRequestInFlight || answerQueued }

    package func handlerAdded(context: ChannelHandlerContext) {
        registration = limiter.open(context.channel)
        if registration == nil { context.close(promise: nil) }
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        deadline = nil
        if let registration { limiter.closed(registration) }
        registration = nil
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            let wasBusy = isBusy
            heads += 1
            if !wasBusy {
                registration?.markBusy()
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
        context.write(data, promise: promise)
        writeEnds += 1
        // The next pipelined request gets its own time; a queued answer keeps its request's.
        if hasRequestInFlight { arm(context) }
        if !context.channel.isWritable { answerQueued = true }
        settle(context)
    }

    package func channelWritabilityChanged(context: ChannelHandlerContext) {
        if answerQueued, context.channel.isWritable {
            answerQueued = false
            settle(context)
        }
        context.fireChannelWritabilityChanged()
    }

    /// Back to idle once every started request has been read and answered.
    private func settle(_ context: ChannelHandlerContext) {
        guard !isBusy else { return }
        deadline = nil
        registration?.markIdle()
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
