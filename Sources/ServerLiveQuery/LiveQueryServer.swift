import ClassRules
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import OnTheMapModels
import ServerConfig
import ServerQuery
import ServerSessions
import ServerStorage

/// Parse LiveQuery on the server's own port: a WebSocket upgrade at `/` (Docs/API.md,
/// "LiveQuery"). Reads follow the REST list's rules: no session needed, a given session token
/// must be valid, the same `where` parser and limits, rows as the list writes them.
package final class LiveQueryServer: Sendable {
    package let hub: LiveQueryHub
    private let storage: any ServerStorage
    private let sessions: SessionAuthority
    private let configuration: ServerConfiguration
    /// The REST list's gate: a `query` op the REST list would call expensive takes one of its slots.
    private let expensiveQueries: ExpensiveRun
    /// The subject a client address is counted as, as the REST API's limits count it.
    private let addressSubject: @Sendable (String) -> String
    var limits: LiveQueryLimits { configuration.liveQuery }
    /// Sockets open per client address, and in all.
    private let open = NIOLockedValueBox<(byAddress: [String: Int], total: Int)>(([:], 0))

    /// Runs a list query the REST list calls expensive (`ListQuery.isExpensive`) as the REST list
    /// does: in a slot of its gate (the API's `ExpensiveQueryGate.run`), or refused with a
    /// `QueryRefusal` (155) when none frees in time.
    package typealias ExpensiveRun = @Sendable (_ body: () async throws -> [StoredLocation]) async throws -> [StoredLocation]

    /// The wiring (`ServerApplication`) hands in what the socket shares with the REST API:
    /// `expensiveQueries`, its gate, and `addressSubject`, how its limits count a client address
    /// (`ClientAddress.subject`: an IPv6 client by its /64).
    package init(
        storage: any ServerStorage, configuration: ServerConfiguration, sessions: SessionAuthority,
        visibility: @escaping LiveQueryVisibility, expensiveQueries: @escaping ExpensiveRun,
        addressSubject: @escaping @Sendable (String) -> String
    ) {
        self.storage = storage
        self.configuration = configuration
        self.expensiveQueries = expensiveQueries
        self.addressSubject = addressSubject
        self.sessions = sessions
        hub = LiveQueryHub(
            visibility: visibility, queueBytesPerAddress: configuration.liveQuery.queueBytesPerAddress,
            matchingBudget: configuration.liveQuery.matchingBudgetPerWrite)
    }

    /// A socket let in (or refused, with the reason it is told before it is closed) at the
    /// upgrade, with the client address it counts against.
    struct Admission: Sendable {
        let address: String
        let refusal: LiveQueryError?
    }

    /// Whether the upgrade's `Origin` may open a socket (`OriginCheck`: none, the server's own,
    /// or `--allowed-origin`).
    func allowsOrigin(_ head: HTTPRequestHead) -> Bool {
        OriginCheck.allows(
            origin: head.headers["Origin"].first, host: head.headers["Host"].first, allowed: configuration.allowedOrigins)
    }

    /// Admits a request for `/` to the LiveQuery socket (`nil`: anything else, which stays HTTP).
    /// The socket is counted here, against its address and the total, until its channel closes.
    func admit(_ head: HTTPRequestHead, channel: any Channel) -> Admission? {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        guard head.method == .GET, path == RequestPath.liveQuery else { return nil }
        var peer = channel.remoteAddress?.ipAddress ?? "unknown"
        if configuration.trustProxy, let forwarded = head.headers["X-Forwarded-For"].last,
            let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty,
            last.utf8.count <= 64
        {
            peer = last
        }
        // Counted as the login throttle counts: an IPv6 client by its /64, which it can rotate
        // through (was: each full address, so one network had 2^64 shares).
        let address = addressSubject(peer)
        // Counted before the upgrade; a socket over a limit is told why and closed (refusing
        // the upgrade would only answer the client with a bare 400).
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
        if refusal == nil {
            channel.closeFuture.whenComplete { [open] _ in
                open.withLockedValue { open in
                    open.total -= 1
                    open.byAddress[address, default: 1] -= 1
                    if open.byAddress[address] == 0 { open.byAddress[address] = nil }
                }
            }
        }
        return Admission(address: address, refusal: refusal)
    }

    /// Closes every socket (1001), when the server stops: they hold no task that its shutdown
    /// would end.
    package func closeAll() {
        for connection in hub.allConnections { connection.goAway() }
    }

    /// What every socket is told when the database was replaced by a backup (`restore`):
    /// `reconnect`, so that a Parse client connects and subscribes again, against the restored
    /// data and with a session the restored database knows (or none).
    static var reloadMessage: String {
        LiveQueryReply.error(
            LiveQueryError(
                code: 1, "the database was restored from a backup: connect and subscribe again", reconnect: true))
    }

    /// Ends every socket (the error above, then a close): the database was replaced, and what a
    /// socket holds — its callers, sessions and subscriptions' view — was of the one before.
    package func reload() {
        for connection in hub.allConnections { connection.endSession(Self.reloadMessage, closing: "database restored") }
    }

    /// Handles one message of a socket, in the order they came (the socket starts the next once
    /// this one returns).
    func handle(_ text: String, _ connection: LiveQueryConnection) async {
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
                let session = try await self.session(sessionToken)
                connection.markConnected(caller: session.caller, sessionToken: sessionToken, sessionExpiresAt: session.expiresAt)
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
                try checkCost(of: query, replacing: existing, on: connection)
                let token = sessionToken ?? existing?.sessionToken ?? connection.sessionToken
                // Its own token's session, or the one it had, or the socket's.
                let session: (caller: Caller, expiresAt: Double?)
                if let sessionToken {
                    session = try await self.session(sessionToken)
                } else if let existing {
                    session = (existing.caller, existing.sessionExpiresAt)
                } else {
                    session = (connection.caller, nil)
                }
                let since = try await storage.changeLogEnd()
                connection.setSubscription(
                    requestId,
                    .init(query: query, caller: session.caller, sessionToken: token, since: since, sessionExpiresAt: session.expiresAt))
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
        } catch let refusal as QueryRefusal {
            connection.enqueue(LiveQueryReply.error(LiveQueryError(refusal: refusal), requestId: requestIdOfMessage))
        } catch let failure as QueryFailure {
            connection.enqueue(LiveQueryReply.error(LiveQueryError(refusal: QueryRefusal(failure)), requestId: requestIdOfMessage))
        } catch {
            connection.enqueue(
                LiveQueryReply.error(LiveQueryError(code: 1, "internal server error", reconnect: true), requestId: requestIdOfMessage))
        }
    }

    /// Refuses a subscription whose work per write no budget bounds: a `$regex` that can take
    /// exponential time (`RegexCost`), or more `$regex` constraints than the socket's or its
    /// address's share (`LiveQueryLimits`). Each write runs every subscription's constraints on the
    /// row before and after, so these bound the regex work one write can cause per socket and per
    /// address.
    private func checkCost(
        of query: LiveQueryRequest.Query, replacing existing: LiveQueryHub.Subscription?, on connection: LiveQueryConnection
    ) throws {
        if let feature = query.predicate.unreadRegexFeature {
            throw LiveQueryError(code: 124, "query too expensive: a LiveQuery $regex may not use \(feature)")
        }
        if let pattern = query.predicate.unboundedRegex {
            let shown = String(String.UnicodeScalarView(pattern.unicodeScalars.prefix(64)))
            throw LiveQueryError(
                code: 124, "query too expensive: the $regex \"\(shown)\" repeats a group that can match one text in many ways")
        }
        let added = query.predicate.regexCount - (existing?.query.predicate.regexCount ?? 0)
        guard added > 0 else { return }
        if connection.regexCount + added > limits.regexesPerConnection {
            throw LiveQueryError(code: 124, "query too expensive: at most \(limits.regexesPerConnection) $regex per connection")
        }
        if hub.regexCount(address: connection.address) + added > limits.regexesPerAddress {
            throw LiveQueryError(code: 124, "query too expensive: at most \(limits.regexesPerAddress) $regex per address")
        }
    }

    /// Follows a change of who `accountKey` is (the change log: a role changed, the account was
    /// suspended or deleted, a session ended): every socket and subscription that has this
    /// account's view asks its session token again.
    ///
    /// - A session that no longer resolves (logged out, expired, suspended, deleted) ends the
    ///   socket with an `error` 209 (no reconnect: the client must log in again).
    /// - A session whose role changed keeps its socket; each subscription is sent `leave` for the
    ///   hidden rows it may no longer see and `enter` for those it now may, then follows the new
    ///   caller.
    package func followCaller(accountKey: String) async {
        for connection in hub.connections(ofAccount: accountKey) {
            var resolved: [String: Caller?] = [:]
            /// The caller `token` resolves to now; `nil` once its session ended; `current` when
            /// the database could not tell (asked again at the account's next change).
            func now(_ token: String?, current: Caller) async -> Caller? {
                guard let token else { return .anonymous }
                if let known = resolved[token] { return known }
                let caller: Caller?
                do {
                    caller = try await self.session(token).caller
                } catch is LiveQueryError {
                    caller = nil
                } catch {
                    return current
                }
                resolved[token] = caller
                return caller
            }
            if connection.caller.accountKey == accountKey {
                guard let caller = await now(connection.sessionToken, current: connection.caller) else {
                    endSession(connection)
                    continue
                }
                connection.setCaller(caller)
            }
            for (requestId, subscription) in connection.subscriptions() where subscription.caller.accountKey == accountKey {
                guard let caller = await now(subscription.sessionToken, current: subscription.caller) else {
                    endSession(connection)
                    break
                }
                guard caller != subscription.caller else { continue }
                await changeView(of: subscription, to: caller, requestId: requestId, on: connection)
            }
        }
    }

    private func endSession(_ connection: LiveQueryConnection) {
        connection.endSession(LiveQueryConnection.sessionEndedMessage)
    }

    /// The hidden rows a subscription saw or now sees differently under `caller`: `leave` or
    /// `enter` each (at most the REST list's largest page of them), then the subscription follows
    /// `caller`. Public rows look the same to every caller.
    private func changeView(
        of subscription: LiveQueryHub.Subscription, to caller: Caller, requestId: Int, on connection: LiveQueryConnection
    ) async {
        var query = ListQuery(limit: configuration.maxLimit)
        query.predicate = subscription.query.predicate
        query.visibility = .hiddenOnly
        let rows = (try? await storage.locations(query).rows) ?? []
        var updated = subscription
        updated.caller = caller
        connection.setSubscription(requestId, updated)
        for row in rows {
            let before = hub.visibility(row, subscription.caller)
            let after = hub.visibility(row, caller)
            guard before != after else { continue }
            connection.enqueue(
                LiveQueryReply.event(
                    after ? "enter" : "leave", clientId: connection.clientId, requestId: requestId, object: row, original: nil,
                    fields: subscription.query.fields))
        }
    }

    /// The caller of a session token (its account and role, as for a REST request) and when its
    /// session ends (seconds since 1970), which the socket that holds it keeps: it ends the
    /// socket then, by timer and before any send; `anonymous` for no token; an error for a token
    /// that is not a live session (or a suspended account's).
    private func session(_ sessionToken: String?) async throws -> (caller: Caller, expiresAt: Double?) {
        guard let sessionToken else { return (.anonymous, nil) }
        guard sessionToken.utf8.count <= 256,
            let session = try await sessions.caller(sessionID: sessionToken)
        else {
            throw LiveQueryError(code: 209, "Invalid session token")
        }
        return (session.caller, session.expiresAt)
    }

    /// The `query` op: the first page of the subscription's rows, newest first, as the REST list
    /// would give it (its default page size), less the rows the subscriber may not see.
    private func firstPage(_ subscription: LiveQueryHub.Subscription, clientId: Int, requestId: Int) async throws -> String {
        var query = ListQuery(limit: configuration.defaultLimit)
        query.predicate = subscription.query.predicate
        query.order = [.init(field: .updatedAt, descending: true)]
        query.keys = subscription.query.fields
        query.visibility = Access.visibility(for: subscription.caller)
        let rows =
            try await (query.isExpensive
            ? expensiveQueries { try await storage.locations(query).rows }
            : storage.locations(query).rows).filter { hub.visibility($0, subscription.caller) }
        return LiveQueryReply.result(clientId: clientId, requestId: requestId, rows: rows, fields: subscription.query.fields)
    }
}
