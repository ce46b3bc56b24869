import Foundation
import Logging
import OnTheMapModels
import HummingbirdWSClient

/// The real `LiveChannel`: hummingbird-websocket's client (NIO) on the server's own host and port
/// (`ws://host:port/`, Parse's convention). Debian's libcurl is built without WebSocket support,
/// so `URLSessionWebSocketTask` cannot open a socket here (Docs/Architecture.md "Live channel").
public struct LiveQueryConnection: LiveChannel {
    /// The largest message read from the server (a `result` page of 100 rows is ~30 KB); a
    /// larger frame ends the socket, which then reconnects.
    public static let maxMessageBytes = 1 << 20

    public var configuration: APIConfiguration
    /// The session token sent with `connect` and `subscribe` (none: the list's public rows).
    public var sessionToken: @Sendable () -> String?
    public var backoff: LiveBackoff

    public init(
        configuration: APIConfiguration, backoff: LiveBackoff = LiveBackoff(),
        sessionToken: @escaping @Sendable () -> String? = { nil }
    ) {
        self.configuration = configuration
        self.sessionToken = sessionToken
        self.backoff = backoff
    }

    /// `ws://host:port/` (or `wss://` for https) of the REST server.
    public var socketURL: String {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        components.path = "/"
        components.query = nil
        return components.string ?? "ws://127.0.0.1/"
    }

    public func liveEvents(where whereClause: JSONValue?) -> AsyncStream<LiveEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveEvent.self, bufferingPolicy: .bufferingNewest(1000))
        let task = Task {
            var attempt = 0
            while !Task.isCancelled {
                let outcome = await runOnce(whereClause: whereClause, continuation: continuation)
                if case .refused(let message) = outcome {
                    continuation.yield(.refused(message))
                    break
                }
                if case .ended(_, let wasLive) = outcome, wasLive { attempt = 0 }
                if Task.isCancelled { break }
                let seconds = backoff.delay(attempt: attempt)
                attempt += 1
                continuation.yield(.reconnecting(seconds: seconds, reason: outcome.reason))
                try? await Task.sleep(for: .seconds(seconds))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private enum Outcome {
        case ended(String, wasLive: Bool)
        case refused(String)

        var reason: String {
            switch self {
            case .ended(let reason, _), .refused(let reason): reason
            }
        }
    }

    /// One socket: connect, subscribe, ask for the first page, then events until it ends.
    private func runOnce(whereClause: JSONValue?, continuation: AsyncStream<LiveEvent>.Continuation) async -> Outcome {
        let logger = Logger(label: "onthemap.live", factory: { _ in SwiftLogNoOpLogHandler() })
        let token = sessionToken()
        let box = OutcomeBox()
        do {
            let close = try await WebSocketClient.connect(
                url: socketURL, configuration: .init(maxFrameSize: Self.maxMessageBytes), logger: logger
            ) { inbound, outbound, _ in
                var connect: [String: JSONValue] = ["op": .string("connect")]
                if let id = configuration.parseApplicationID { connect["applicationId"] = .string(id) }
                if let key = configuration.parseRESTAPIKey { connect["restAPIKey"] = .string(key) }
                if let token { connect["sessionToken"] = .string(token) }
                try await outbound.write(.text(Self.text(connect)))
                for try await message in inbound.messages(maxSize: Self.maxMessageBytes) {
                    guard case .text(let text) = message, let body = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
                    else { continue }
                    switch body["op"]?.stringValue {
                    case "connected":
                        var query: [String: JSONValue] = ["className": .string("StudentLocation")]
                        if let whereClause { query["where"] = whereClause }
                        try await outbound.write(
                            .text(Self.text(["op": .string("subscribe"), "requestId": .number(1), "query": .object(query)])))
                    case "subscribed":
                        box.wasLive = true
                        continuation.yield(.live)
                        // The first page over the socket: no gap between it and the events.
                        try await outbound.write(.text(Self.text(["op": .string("query"), "requestId": .number(1)])))
                    case "result":
                        if let list = try? StudentLocationList.decode(Data(text.utf8)) {
                            continuation.yield(.firstPage(list.locations))
                        }
                    case "error":
                        let words = body["error"]?.stringValue ?? "error"
                        if body["reconnect"] != .bool(true), !box.wasLive {
                            box.refusal = words
                            try await outbound.close(.normalClosure, reason: nil)
                            return
                        }
                        box.reason = words
                    case let op?:
                        guard let liveOp = LiveOp(rawValue: op), let object = body["object"],
                            let row = StudentInformation(json: object)
                        else { continue }
                        continuation.yield(.change(liveOp, row))
                    case nil:
                        continue
                    }
                }
            }
            if let refusal = box.refusal { return .refused(refusal) }
            let reason = close.map { "closed (\($0.closeCode))" } ?? box.reason ?? "closed"
            return .ended(reason, wasLive: box.wasLive)
        } catch {
            if let refusal = box.refusal { return .refused(refusal) }
            return .ended(box.reason ?? "cannot reach \(configuration.serverDescription)", wasLive: box.wasLive)
        }
    }

    private static func text(_ object: [String: JSONValue]) -> String {
        let data = (try? JSONEncoder().encode(JSONValue.object(object))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// What one socket's handler learnt, read after it returns.
private final class OutcomeBox: @unchecked Sendable {
    var wasLive = false
    var refusal: String?
    var reason: String?
}

extension OnTheMapClient: LiveChannel {
    /// The live channel to this client's server, with its current session's token.
    public var liveConnection: LiveQueryConnection {
        LiveQueryConnection(configuration: configuration) { [weak self] in self?.currentSession?.sessionID }
    }

    public func liveEvents(where whereClause: JSONValue?) -> AsyncStream<LiveEvent> {
        liveConnection.liveEvents(where: whereClause)
    }
}
