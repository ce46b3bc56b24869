import BoundedHTTP
import Foundation
import OnTheMapModels

/// The real `LiveChannel`: `LiveQuerySocket` (RFC 6455 by hand) on the server's own host and port
/// (`ws://host:port/`, or `wss://` for an `https://` server: Parse's convention). Why not `URLSessionWebSocketTask` or
/// hummingbird-websocket's client: Docs/Architecture.md, "The client side of LiveQuery".
public struct LiveQueryConnection: LiveChannel {
    /// The largest message read from the server (a `result` page of 100 rows is ~30 KB); a
    /// larger frame ends the socket, which then reconnects.
    public static let maxMessageBytes = 1 << 20

    public var configuration: APIConfiguration
    /// The session token sent with `connect` and `subscribe` (none: the list's public rows).
    public var sessionToken: @Sendable () -> String?
    public var backoff: LiveBackoff
    /// For an `https://` server, a CA bundle to trust instead of the system's (tests).
    public var caFile: String?

    public init(
        configuration: APIConfiguration, backoff: LiveBackoff = LiveBackoff(), caFile: String? = nil,
        sessionToken: @escaping @Sendable () -> String? = { nil }
    ) {
        self.configuration = configuration
        self.sessionToken = sessionToken
        self.backoff = backoff
        self.caFile = caFile
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

    /// One socket: connect, subscribe, ask for the first page, then events until it ends. The
    /// socket blocks, so it runs on a thread of its own; cancelling the reader closes it.
    private func runOnce(whereClause: JSONValue?, continuation: AsyncStream<LiveEvent>.Continuation) async -> Outcome {
        let configuration = configuration
        let caFile = caFile
        let token = sessionToken()
        let holder = SocketHolder()
        return await withTaskCancellationHandler {
            await onThreadOfItsOwn { () -> Outcome in
                let socket: LiveQuerySocket
                do {
                    socket = try LiveQuerySocket(
                        baseURL: configuration.baseURL, timeout: configuration.timeout, caFile: caFile)
                } catch {
                    return .ended(String(describing: error), wasLive: false)
                }
                socket.maxMessageBytes = Self.maxMessageBytes
                guard holder.set(socket) else { return .ended("cancelled", wasLive: false) }
                defer { socket.close() }
                var connect: [String: JSONValue] = ["op": .string("connect")]
                if let id = configuration.parseApplicationID { connect["applicationId"] = .string(id) }
                if let key = configuration.parseRESTAPIKey { connect["restAPIKey"] = .string(key) }
                if let token { connect["sessionToken"] = .string(token) }
                socket.send(Self.text(connect))
                var wasLive = false
                var reason = "the server closed the connection"
                while let text = socket.receive() {
                    guard let body = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { continue }
                    switch body["op"]?.stringValue {
                    case "connected":
                        var query: [String: JSONValue] = ["className": .string("StudentLocation")]
                        if let whereClause { query["where"] = whereClause }
                        socket.send(
                            Self.text(["op": .string("subscribe"), "requestId": .number(1), "query": .object(query)]))
                    case "subscribed":
                        wasLive = true
                        continuation.yield(.live)
                        // The first page over the socket: no gap between it and the events.
                        socket.send(Self.text(["op": .string("query"), "requestId": .number(1)]))
                    case "result":
                        if let list = try? StudentLocationList.decode(Data(text.utf8)) {
                            continuation.yield(.firstPage(list.locations))
                        }
                    case "error":
                        let words = body["error"]?.stringValue ?? "error"
                        if body["reconnect"] != .bool(true), !wasLive { return .refused(words) }
                        reason = words
                    case let op?:
                        guard let liveOp = LiveOp(rawValue: op), let object = body["object"],
                            let row = StudentInformation(json: object)
                        else { continue }
                        continuation.yield(.change(liveOp, row))
                    case nil:
                        continue
                    }
                }
                return .ended(reason, wasLive: wasLive)
            }
        } onCancel: {
            holder.cancel()
        }
    }

    private static func text(_ object: [String: JSONValue]) -> String {
        let data = (try? JSONEncoder().encode(JSONValue.object(object))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// The socket of the attempt under way, so cancelling the reader can close it from outside.
private final class SocketHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var socket: LiveQuerySocket?
    private var isCancelled = false

    /// Keeps `socket`; false (and nothing kept) once cancelled.
    func set(_ socket: LiveQuerySocket) -> Bool {
        lock.withLock {
            guard !isCancelled else { return false }
            self.socket = socket
            return true
        }
    }

    func cancel() {
        lock.withLock {
            isCancelled = true
            socket?.close()
        }
    }
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
