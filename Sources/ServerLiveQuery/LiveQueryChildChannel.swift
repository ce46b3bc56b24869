import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// The server's connections: HTTP/1.1 for the REST API, and the LiveQuery WebSocket upgrade at
/// `/` (Docs/Architecture.md, "LiveQuery").
///
/// An upgraded socket runs in its channel handlers (NIO's frame decoder and encoder, its
/// aggregator, `LiveQuerySocketHandler`): the task that Hummingbird runs per connection returns
/// at once, so an idle socket holds no suspended task. HTTP connections are served as by
/// Hummingbird's `HTTP1Channel`.
package struct LiveQueryChildChannel: ServerChildChannel, HTTPChannelHandler {
    package enum Upgrade: Sendable {
        /// The LiveQuery socket, running in its handlers.
        case liveQuery
        /// HTTP; `refusedUpgrade` (the answer to give) when the client asked for an upgrade that
        /// was not given.
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, refusedUpgrade: HTTPResponse.Status?)
    }

    package struct Value: ServerChildChannelValue {
        package let upgrade: EventLoopFuture<Upgrade>
        package let channel: any Channel
    }

    package let responder: HTTPChannelHandler.Responder
    private let http1: HTTP1Channel.Configuration
    private let liveQuery: LiveQueryServer

    package init(responder: @escaping HTTPChannelHandler.Responder, http1: HTTP1Channel.Configuration, liveQuery: LiveQueryServer) {
        self.http1 = http1
        self.liveQuery = liveQuery
        // NIO decides on an upgrade at a connection's first request only: a later request that
        // asks for one is sent to the same path on a new connection.
        self.responder = { request, writer, channel in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                return try await responder(request, writer, channel)
            }
            let location = request.uri.query.map { "\(request.uri.path)?\($0)" } ?? request.uri.path
            try await writer.writeResponse(
                HTTPResponse(status: .temporaryRedirect, headerFields: [.connection: "close", .location: location]))
            throw ChannelError.outputClosed
        }
    }

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let sync = channel.pipeline.syncOperations
            // Per connection: whether an upgrade was asked for, and the LiveQuery admission of it.
            let asked = NIOLoopBoundBox<HTTPResponse.Status?>(nil, eventLoop: channel.eventLoop)
            let admitted = NIOLoopBoundBox<LiveQueryServer.Admission?>(nil, eventLoop: channel.eventLoop)
            let limits = liveQuery.limits
            let upgrader = NIOTypedWebSocketServerUpgrader<Upgrade>(
                maxFrameSize: limits.maxMessageBytes,
                shouldUpgrade: { [liveQuery] channel, head in
                    // Another site's page may not open a socket (403); an upgrade elsewhere is 400.
                    guard liveQuery.allowsOrigin(head) else {
                        asked.value = .forbidden
                        return channel.eventLoop.makeSucceededFuture(nil)
                    }
                    asked.value = .badRequest
                    admitted.value = liveQuery.admit(head, channel: channel)
                    return channel.eventLoop.makeSucceededFuture(admitted.value == nil ? nil : HTTPHeaders())
                },
                upgradePipelineHandler: { [liveQuery] channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard let admission = admitted.value else { throw ChannelError.inappropriateOperationForState }
                        try channel.pipeline.syncOperations.addHandlers(
                            LiveQueryFrameRules(),
                            NIOWebSocketFrameAggregator(
                                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 64,
                                maxAccumulatedFrameSize: limits.maxMessageBytes),
                            LiveQuerySocketHandler(server: liveQuery, admission: admission, logger: logger))
                        return .liveQuery
                    }
                })
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<Upgrade>(
                upgradeConfiguration: .init(upgraders: [upgrader]) { [http1] channel in
                    channel.eventLoop.makeCompletedFuture {
                        let sync = channel.pipeline.syncOperations
                        try sync.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try sync.addHandlers(http1.additionalChannelHandlers())
                        try sync.addHandler(HTTPConnectionStateHandler(idleTimeout: http1.idleTimeout.map { .init($0) }, logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                        return .http(http, refusedUpgrade: asked.value)
                    }
                })
            configuration.enablePipelining = false  // NIOAsyncChannel serves one request at a time
            configuration.enableErrorHandling = false  // Hummingbird answers parse errors
            configuration.enableResponseHeaderValidation = false  // HTTPTypes validated them
            configuration.decoderConfiguration.maxHeaderFieldSize = http1.httpDecoder.maxHeaderFieldSize
            configuration.decoderConfiguration.maxHeaderListSize = http1.httpDecoder.maxHeaderListSize
            configuration.decoderConfiguration.maxHeaderFieldCount = http1.httpDecoder.maxHeaderFieldCount
            let upgrade = try sync.configureUpgradableHTTPServerPipeline(configuration: configuration)
            try sync.addHandler(UnparsableFirstRequestHandler<Upgrade>())
            return Value(upgrade: upgrade, channel: channel)
        }
    }

    package func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.upgrade.get() {
            case .liveQuery:
                return
            case .http(let http, refusedUpgrade: nil):
                await handleHTTP(asyncChannel: http, logger: logger)
            case .http(let http, refusedUpgrade: let status?):
                // An upgrade somewhere other than `/` (400) or from another site's page (403);
                // the connection ends.
                try await http.executeThenClose { _, outbound in
                    try await outbound.write(
                        contentsOf: [
                            .head(HTTPResponse(status: status, headerFields: [.connection: "close", .contentLength: "0"])),
                            .end(nil),
                        ])
                }
            }
        } catch {
            logger.debug("connection ended before its first request", metadata: ["error": "\(type(of: error))"])
        }
    }
}
