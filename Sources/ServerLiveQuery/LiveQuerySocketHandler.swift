import Foundation
import Logging
import NIOCore
import NIOWebSocket

/// One LiveQuery socket after the upgrade, as a channel handler behind NIO's WebSocket frame
/// decoder, encoder and aggregator: an idle socket holds no task, only this object, its
/// `LiveQueryConnection` and two timers (Docs/Benchmarks.md, "Live class map").
///
/// - Messages are handled one at a time, in order, each in a short task (`LiveQueryServer.handle`:
///   a session lookup, the `query` op's page); while one runs, the socket's reads wait.
/// - Outgoing messages are written straight to the channel; the connection counts those not yet
///   written and drops a subscriber that stops reading (1008), the TCP connection a second later.
/// - A ping every `pingSeconds`; a client that has not answered one by the next is closed (1001).
/// - A socket that has not sent `connect` within `connectSeconds` is closed (one whose messages
///   are still being handled then is given the time again).
/// - A socket whose session runs out is told (209) and closed then (`LiveQueryConnection`'s
///   `sessionEnds`); the timer goes with the socket.
final class LiveQuerySocketHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let server: LiveQueryServer
    private let admission: LiveQueryServer.Admission
    private let logger: Logger
    private var context: ChannelHandlerContext?
    private var connection: LiveQueryConnection?
    private var pingTimer: Scheduled<Void>?
    private var connectTimer: Scheduled<Void>?
    private var closeTimer: Scheduled<Void>?
    private var sessionTimer: Scheduled<Void>?
    /// The payload of the last ping not yet answered.
    private var unansweredPing: ByteBuffer?
    private var closeSent = false
    /// Messages received while an earlier one is being handled.
    private var inbox = CircularBuffer<String>()
    private var handling = false
    /// A read the channel asked for while a message was being handled, issued once it is done.
    private var heldRead = false
    /// How long a socket the server closes has to answer the close before its TCP connection ends.
    private static let closeTimeout = TimeAmount.seconds(5)

    init(server: LiveQueryServer, admission: LiveQueryServer.Admission, logger: Logger) {
        self.server = server
        self.admission = admission
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if let refusal = admission.refusal {
            write(LiveQueryReply.error(refusal), context: context)
            close(.unknown(1013), reason: "try again later", within: nil)
            return
        }
        let channel = context.channel
        let loop = context.eventLoop
        let this = NIOLoopBound(self, eventLoop: loop)
        let address = admission.address
        let logger = logger
        let connection = LiveQueryConnection(
            clientId: server.hub.makeClientId(), address: address, queueLength: server.limits.queueLength,
            queueBytes: server.limits.queueBytes, addressQueues: server.hub.addressQueues,
            socket: .init(
                send: { message, written in
                    let promise = loop.makePromise(of: Void.self)
                    promise.futureResult.whenComplete { _ in written() }
                    let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: message))
                    channel.writeAndFlush(frame, promise: promise)
                },
                overflowed: {
                    // Fell a whole queue behind: it stopped reading. The 1008 close goes out if
                    // the client reads again; the TCP connection ends a second later in any case.
                    logger.notice("closing a LiveQuery subscriber that stopped reading", metadata: ["address": "\(address)"])
                    loop.execute { this.value.close(.policyViolation, reason: "subscriber too slow", within: .seconds(1)) }
                },
                goingAway: { loop.execute { this.value.close(.goingAway, reason: "server stopping", within: nil) } },
                sessionEnded: { reason in loop.execute { this.value.close(.normalClosure, reason: reason, within: .seconds(1)) } },
                sessionEndsAt: { end in loop.execute { this.value.watchSession(until: end) } }))
        self.connection = connection
        server.hub.add(connection)
        let seconds = server.limits
        scheduleConnectDeadline(in: .milliseconds(Int64(seconds.connectSeconds * 1000)))
        schedulePing(in: .milliseconds(Int64(seconds.pingSeconds * 1000)))
    }

    /// Closes the socket if it has sent nothing by then and is not connected. A socket whose
    /// messages are being handled (its `connect` among them: a busy server takes a while) is
    /// given the same time again instead.
    private func scheduleConnectDeadline(in time: TimeAmount) {
        guard let context else { return }
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        connectTimer = context.eventLoop.assumeIsolated().scheduleTask(in: time) {
            let handler = this.value
            guard let connection = handler.connection, !connection.isConnected else { return }
            if handler.handling || !handler.inbox.isEmpty {
                handler.scheduleConnectDeadline(in: time)
            } else {
                handler.context?.close(promise: nil)
            }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    /// Ends the socket's session just after `end` (seconds since 1970; `nil`: no session).
    private func watchSession(until end: Double?) {
        sessionTimer?.cancel()
        sessionTimer = nil
        guard let end, let connection, let context else { return }
        let wait = max(0, end - Date().timeIntervalSince1970) + 0.05
        sessionTimer = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(Int64(wait * 1000))) {
            connection.endIfSessionEnded()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    /// Leaves the hub and stops the timers (once).
    private func release() {
        for timer in [pingTimer, connectTimer, closeTimer, sessionTimer] { timer?.cancel() }
        pingTimer = nil
        connectTimer = nil
        closeTimer = nil
        sessionTimer = nil
        inbox.removeAll()
        if let connection { server.hub.remove(connection) }
        connection = nil
        context = nil
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text where !closeSent:
            guard let text = String(validating: frame.unmaskedData.readableBytesView, as: UTF8.self) else {
                close(.dataInconsistentWithMessage, reason: "invalid UTF-8")
                return
            }
            receive(text)
        case .binary where !closeSent:
            write(LiveQueryReply.error(LiveQueryError(code: 107, "messages are JSON text")), context: context)
        case .ping:
            guard frame.fin else { return close(.protocolError, reason: nil) }
            guard !closeSent else { return }
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong:
            if frame.unmaskedData == unansweredPing { unansweredPing = nil }
        case .connectionClose:
            // The client's close: answered with its code (if the server's own was not sent
            // yet), then the connection ends.
            if !closeSent {
                var data = frame.unmaskedData
                let code = data.readWebSocketErrorCode() ?? .normalClosure
                sendClose(code, reason: nil)
            }
            context.close(promise: nil)
        case .text, .binary:
            break  // after the server's close: dropped
        default:
            // A reserved opcode (3–7, 11–15; continuations arrive aggregated): RFC 6455 says
            // to fail the connection.
            close(.protocolError, reason: nil, within: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Hummingbird allows half-closure: a client that has shut its side down has left.
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // The decoder's errors (a frame over the size limit: 1009) are answered by NIO's
        // WebSocketProtocolErrorHandler before this; the aggregator's are answered here.
        if error is NIOWebSocketError { return }
        if let violation = error as? LiveQueryFrameRules.Violation {
            close(.protocolError, reason: violation == .unmasked ? "frames must be masked" : "reserved bits set", within: nil)
            return
        }
        if let error = error as? NIOWebSocketFrameAggregator.Error {
            close(error == .accumulatedFrameSizeIsTooLarge ? .messageTooLarge : .protocolError, reason: nil, within: nil)
            return
        }
        logger.debug("LiveQuery socket ended", metadata: ["error": "\(type(of: error))"])
        context.close(promise: nil)
    }

    /// Reads wait while a message is being handled, and while the channel's outbound buffer is
    /// full: a client that sends (pings, binary frames, bad requests) but never reads the answers
    /// is not read either, so what the server owes it stays bounded.
    func read(context: ChannelHandlerContext) {
        if handling || !context.channel.isWritable { heldRead = true } else { context.read() }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        resumeHeldRead()
        context.fireChannelWritabilityChanged()
    }

    /// Issues the read the channel asked for, once no message is being handled and the channel
    /// can take writes again.
    private func resumeHeldRead() {
        guard heldRead, !handling, let context, context.channel.isWritable else { return }
        heldRead = false
        context.read()
    }

    /// Queues a message, and handles it now if none is being handled.
    private func receive(_ text: String) {
        inbox.append(text)
        if !handling { handleNext() }
    }

    private func handleNext() {
        guard let context, let connection, !closeSent, let text = inbox.popFirst() else {
            handling = false
            resumeHeldRead()
            return
        }
        handling = true
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loop = context.eventLoop
        let server = server
        Task {
            await server.handle(text, connection)
            loop.execute { this.value.handleNext() }
        }
    }

    // MARK: Outbound

    private func write(_ message: String, context: ChannelHandlerContext) {
        let frame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: message))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    private func schedulePing(in delay: TimeAmount) {
        guard let context else { return }
        pingTimer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
            guard let context = self.context, !closeSent else { return }
            if unansweredPing != nil {
                logger.debug("closing a LiveQuery socket that did not answer a ping")
                close(.goingAway, reason: "ping timeout", within: nil)
                return
            }
            var payload = context.channel.allocator.buffer(capacity: 8)
            payload.writeInteger(UInt64.random(in: .min ... .max))
            unansweredPing = payload
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: payload)), promise: nil)
            schedulePing(in: delay)
        }
    }

    private func sendClose(_ code: WebSocketErrorCode, reason: String?, promise: EventLoopPromise<Void>? = nil) {
        guard let context, !closeSent else {
            promise?.succeed()
            return
        }
        closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2 + (reason?.utf8.count ?? 0))
        data.write(webSocketErrorCode: code)
        if let reason { data.writeString(reason) }
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: promise)
    }

    /// Sends the server's close and ends the TCP connection when the client answers it or after
    /// `within`; with `within: nil`, as soon as the close frame is written (a second at most).
    private func close(_ code: WebSocketErrorCode, reason: String?, within: TimeAmount? = closeTimeout) {
        guard let context else { return }
        let written = context.eventLoop.makePromise(of: Void.self)
        sendClose(code, reason: reason, promise: written)
        let channel = context.channel
        if within == nil { written.futureResult.whenComplete { _ in channel.close(promise: nil) } }
        if closeTimer == nil {
            closeTimer = context.eventLoop.assumeIsolated().scheduleTask(in: within ?? .seconds(1)) { channel.close(promise: nil) }
        }
    }
}
