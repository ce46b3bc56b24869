import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import OnTheMapModels

/// Parse LiveQuery on the server's own port: a WebSocket upgrade at `/` (Docs/API.md,
/// "LiveQuery"). Reads follow the REST list's rules: no session needed, a given session token
/// must be valid, the same `where` parser and limits, rows as the list writes them.
final class LiveQueryServer: Sendable {
    typealias Handler = WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>

    let hub: LiveQueryHub
    private let storage: any ServerStorage
    private let sessions: SessionAuthority
    private let configuration: ServerConfiguration
    private var limits: LiveQueryLimits { configuration.liveQuery }
    /// Sockets open per client address, and in all.
    private let open = NIOLockedValueBox<(byAddress: [String: Int], total: Int)>(([:], 0))

    init(storage: any ServerStorage, configuration: ServerConfiguration, visibility: @escaping LiveQueryVisibility) {
        self.storage = storage
        self.configuration = configuration
        sessions = SessionAuthority(storage: storage, configuration: configuration)
        hub = LiveQueryHub(visibility: visibility)
    }

    /// The WebSocket settings: frames up to the message limit, a ping every `pingSeconds` (a
    /// client that has not answered the last ping by the next is closed).
    var webSocketConfiguration: WebSocketServerConfiguration {
        .init(
            maxFrameSize: limits.maxMessageBytes, autoPing: .enabled(timePeriod: .milliseconds(Int64(limits.pingSeconds * 1000))),
            closeTimeout: .seconds(5), validateUTF8: true)
    }

    /// Upgrades a request for `/`; anything else stays HTTP.
    func shouldUpgrade(_ request: HTTPRequest, channel: any Channel, logger: Logger) -> ShouldUpgradeResult<Handler> {
        let path = (request.path ?? "/").split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        guard request.method == .get, path == RequestPath.liveQuery
        else { return .dontUpgrade }
        var peer = channel.remoteAddress?.ipAddress ?? "unknown"
        if configuration.trustProxy, let forwarded = request.headerFields[values: HTTPField.Name("X-Forwarded-For")!].last,
            let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty,
            last.utf8.count <= 64
        {
            peer = last
        }
        let address = peer
        // Counted before the upgrade; a socket over a limit is told why and closed (refusing
        // the upgrade would only make Hummingbird redirect the client back here).
        let refusal: LiveQueryError? = open.withLockedValue { open in
            if open.total >= limits.maxConnections {
                return LiveQueryError(code: 1, "too many LiveQuery connections; try again later", reconnect: true)
            }
            if open.byAddress[address, default: 0] >= limits.connectionsPerAddress {
                return LiveQueryError(code: 1, "too many LiveQuery connections from your address", reconnect: true)
            }
            open.byAddress[address, default: 0] += 1
            open.total += 1
            return nil
        }
        return .upgrade([:]) { [self] inbound, outbound, context in
            guard refusal == nil else {
                try? await outbound.write(.text(LiveQueryReply.error(refusal!)))
                try? await outbound.close(.unknown(1013), reason: "try again later")
                return
            }
            defer {
                open.withLockedValue { open in
                    open.total -= 1
                    open.byAddress[address, default: 1] -= 1
                    if open.byAddress[address] == 0 { open.byAddress[address] = nil }
                }
            }
            await run(inbound: inbound, outbound: outbound, channel: channel, address: address, logger: context.logger)
        }
    }

    private func run(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel, address: String, logger: Logger
    ) async {
        let connection = LiveQueryConnection(clientId: hub.makeClientId(), address: address, queueLength: limits.queueLength) {
            // Fell a whole queue behind: it stopped reading. Closed with 1008 by the writer if the
            // frame can still go out, and the TCP connection in any case a second later.
            logger.notice("closing a LiveQuery subscriber that stopped reading", metadata: ["address": "\(address)"])
            channel.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
        }
        hub.add(connection)
        defer {
            hub.remove(connection)
            connection.finish()
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in connection.messages {
                    do { try await outbound.write(.text(message)) } catch { return }
                }
                // The queue ended: a subscriber that stopped reading is told why; a socket whose
                // client left (or sent what ended it) is closed as the inbound side decided.
                if connection.hasOverflowed { try? await outbound.close(.policyViolation, reason: "subscriber too slow") }
            }
            group.addTask { [limits] in
                try? await Task.sleep(for: .milliseconds(Int64(limits.connectSeconds * 1000)))
                if !Task.isCancelled, !connection.isConnected { channel.close(promise: nil) }
            }
            do {
                for try await message in inbound.messages(maxSize: limits.maxMessageBytes) {
                    guard case .text(let text) = message else {
                        connection.enqueue(LiveQueryReply.error(LiveQueryError(code: 107, "messages are JSON text")))
                        continue
                    }
                    await handle(text, connection)
                }
            } catch {
                logger.debug("LiveQuery socket ended", metadata: ["error": "\(type(of: error))"])
            }
            connection.finish()
            group.cancelAll()
        }
    }

    private func handle(_ text: String, _ connection: LiveQueryConnection) async {
        let clientId = connection.clientId
        var requestIdOfMessage: Int?
        do {
            let request = try LiveQueryRequest.parse(text)
            if case .connect = request {} else if !connection.isConnected {
                throw LiveQueryError(code: 1, "send connect first")
            }
            switch request {
            case .connect(let applicationId, let restAPIKey, let sessionToken):
                if let expected = configuration.parseApplicationID, let key = configuration.parseRESTAPIKey,
                    applicationId != expected || restAPIKey != key
                {
                    throw LiveQueryError(code: 119, "unauthorized: applicationId and restAPIKey do not match")
                }
                connection.markConnected(caller: try await caller(sessionToken))
                connection.enqueue(LiveQueryReply.connected(clientId: clientId))
            case .subscribe(let requestId, let query, let sessionToken), .update(let requestId, let query, let sessionToken):
                requestIdOfMessage = requestId
                let isUpdate: Bool
                if case .update = request { isUpdate = true } else { isUpdate = false }
                let existing = connection.subscription(requestId)
                if isUpdate, existing == nil { throw LiveQueryError(code: 102, "no subscription with this requestId") }
                if !isUpdate, existing != nil { throw LiveQueryError(code: 102, "requestId is in use on this connection") }
                if !isUpdate, connection.subscriptionCount >= limits.subscriptionsPerConnection {
                    throw LiveQueryError(code: 124, "at most \(limits.subscriptionsPerConnection) subscriptions per connection")
                }
                let caller = sessionToken == nil ? (existing?.caller ?? connection.caller) : try await caller(sessionToken)
                connection.setSubscription(requestId, .init(query: query, caller: caller))
                connection.enqueue(LiveQueryReply.subscription("subscribed", clientId: clientId, requestId: requestId))
            case .unsubscribe(let requestId):
                requestIdOfMessage = requestId
                guard connection.subscription(requestId) != nil else {
                    throw LiveQueryError(code: 102, "no subscription with this requestId")
                }
                connection.setSubscription(requestId, nil)
                connection.enqueue(LiveQueryReply.subscription("unsubscribed", clientId: clientId, requestId: requestId))
            case .query(let requestId):
                requestIdOfMessage = requestId
                guard let subscription = connection.subscription(requestId) else {
                    throw LiveQueryError(code: 102, "no subscription with this requestId")
                }
                connection.enqueue(try await firstPage(subscription, clientId: clientId, requestId: requestId))
            }
        } catch let error as LiveQueryError {
            connection.enqueue(LiveQueryReply.error(error, requestId: requestIdOfMessage))
        } catch let failure as APIFailure {
            connection.enqueue(LiveQueryReply.error(LiveQueryError(failure: failure), requestId: requestIdOfMessage))
        } catch {
            connection.enqueue(
                LiveQueryReply.error(LiveQueryError(code: 1, "internal server error", reconnect: true), requestId: requestIdOfMessage))
        }
    }

    /// The caller of a session token (its account and role, as for a REST request); `anonymous`
    /// for no token; an error for a token that is not a live session (or a suspended account's).
    private func caller(_ sessionToken: String?) async throws -> Caller {
        guard let sessionToken else { return .anonymous }
        guard sessionToken.utf8.count <= 256,
            let caller = try await CallerResolver(storage: storage, configuration: configuration, sessions: sessions)
                .account(sessionID: sessionToken)
        else {
            throw LiveQueryError(code: 209, "Invalid session token")
        }
        return caller
    }

    /// The `query` op: the first page of the subscription's rows, newest first, as the REST list
    /// would give it (its default page size), less the rows the subscriber may not see.
    private func firstPage(_ subscription: LiveQueryHub.Subscription, clientId: Int, requestId: Int) async throws -> String {
        var query = ListQuery(limit: configuration.defaultLimit)
        query.predicate = subscription.query.predicate
        query.order = [.init(field: .updatedAt, descending: true)]
        query.keys = subscription.query.fields
        query.visibility = Access.visibility(for: subscription.caller)
        let rows = try await storage.locations(query).rows.filter { hub.visibility($0, subscription.caller) }
        return LiveQueryReply.result(clientId: clientId, requestId: requestId, rows: rows, fields: subscription.query.fields)
    }
}
