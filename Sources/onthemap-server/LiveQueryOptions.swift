import ArgumentParser
import Foundation
import OnTheMapServer
import ServerConfig

/// `serve --live-*`: the LiveQuery socket's bounds (Docs/Security.md lists them).
struct LiveQueryOptions: ParsableArguments {
    @Option(help: "LiveQuery sockets open at once from one client address.") var liveConnectionsPerAddress = 20
    @Option(help: "LiveQuery sockets open at once in all.") var liveMaxConnections = 10_000
    @Option(help: "Subscriptions one LiveQuery socket may hold.") var liveSubscriptions = 50
    @Option(help: "The largest LiveQuery message a client may send, in bytes.") var liveMaxMessageBytes = 16 * 1024
    @Option(help: "Messages queued for one LiveQuery socket; a subscriber this far behind is closed (1008).")
    var liveQueueLength = 1000
    @Option(help: "Seconds between LiveQuery pings; a socket that missed one is closed.") var livePingSeconds = 10.0
    @Option(
        help: ArgumentHelp(
            "An origin besides the server's own whose web pages may open a LiveQuery socket, e.g. https://class.example.org (repeatable). An upgrade with any other Origin header gets 403; clients that send none (the app, onthemap watch, native SDKs) are not affected.",
            valueName: "origin"))
    var allowedOrigin: [String] = []

    func validate() throws {
        guard (1...100_000).contains(liveConnectionsPerAddress), (1...1_000_000).contains(liveMaxConnections) else {
            throw ValidationError("--live-connections-per-address must be 1 to 100000, --live-max-connections 1 to 1000000.")
        }
        guard (1...10_000).contains(liveSubscriptions) else { throw ValidationError("--live-subscriptions must be 1 to 10000.") }
        guard (256...1_048_576).contains(liveMaxMessageBytes) else {
            throw ValidationError("--live-max-message-bytes must be 256 to 1048576.")
        }
        guard (10...1_000_000).contains(liveQueueLength) else { throw ValidationError("--live-queue-length must be 10 to 1000000.") }
        guard livePingSeconds >= 0.5, livePingSeconds <= 3600 else {
            throw ValidationError("--live-ping-seconds must be between 0.5 and 3600.")
        }
        for origin in allowedOrigin {
            guard let url = URL(string: origin), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                url.path.isEmpty || url.path == "/", url.query == nil
            else {
                throw ValidationError("--allowed-origin takes an origin: scheme://host[:port], like https://class.example.org (got \(origin)).")
            }
        }
    }

    func apply(to configuration: inout ServerConfiguration) {
        configuration.liveQuery.connectionsPerAddress = liveConnectionsPerAddress
        configuration.liveQuery.maxConnections = liveMaxConnections
        configuration.liveQuery.subscriptionsPerConnection = liveSubscriptions
        configuration.liveQuery.maxMessageBytes = liveMaxMessageBytes
        configuration.liveQuery.queueLength = liveQueueLength
        configuration.liveQuery.pingSeconds = livePingSeconds
        configuration.allowedOrigins = allowedOrigin
    }
}
