import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import ServerHTTP

/// The server's requests to login providers through AsyncHTTPClient, read with backpressure:
/// the body is pulled a part at a time (AsyncHTTPClient asks the socket for more only when the
/// last part was taken), so whatever its framing — a `Content-Length`, chunked, or none until
/// the connection closes — no more than the cap plus a part or two in flight is ever held, and
/// reading stops (the connection is closed) the moment the cap is passed. An answer that
/// announces a length past the cap is refused before its body is read. The deadline covers the
/// whole exchange: AsyncHTTPClient's own deadline ends when the head arrives, so the body is
/// read in a task that a timer cancels.
///
/// One per process (`onthemap-server serve`, or a test server): its connections are pooled, and
/// `shutdown()` must be called once the server has stopped.
package final class AsyncHTTPProviderExchange: ProviderExchange {
    /// Why an exchange was cut short.
    package enum Failure: Error, Equatable {
        /// The announced length or the bytes read passed the cap.
        case tooBig(maxBytes: Int)
        /// The whole exchange took longer than the deadline.
        case deadline
        /// The request could not be made (its URL or method).
        case badRequest
    }

    private let client: HTTPClient
    /// Connections to one provider at once (AsyncHTTPClient's default is 8).
    package static let connectionsPerHost = 32

    package init() {
        var configuration = HTTPClient.Configuration()
        // A provider's API endpoints answer where they are asked: a redirect is its answer (and
        // a bearer token is never carried to another host).
        configuration.redirectConfiguration = .disallow
        // HTTP/1.1 only: over HTTP/2 AsyncHTTPClient opens an 8 MB flow-control window, which a
        // provider could fill ahead of the reader; on HTTP/1.1 the socket is read only on demand.
        configuration.httpVersion = .http1Only
        // Plain bytes: no decompression, whose output the cap would not see coming.
        configuration.decompression = .disabled
        // AsyncHTTPClient's own connect and idle-read limits; `send` bounds the whole exchange.
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .seconds(10))
        // A provider that refuses the connection is down: the login answers 502 at once instead of
        // retrying with backoff until the deadline (AsyncHTTPClient's default).
        configuration.connectionPool.retryConnectionEstablishment = false
        // Connections kept to one provider at once (beyond them, requests wait for one, within
        // their deadline): each holds at most the cap and a read or two in flight.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = Self.connectionsPerHost
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Closes the pooled connections; call once, after the last `send`.
    package func shutdown() async {
        try? await client.shutdown()
    }

    package func send(_ request: ProviderRequest, maxBytes: Int, deadline: Duration) async throws -> ProviderAnswer {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw Failure.badRequest
        }
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.replaceOrAdd(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let (client, prepared) = (self.client, outgoing)
        return try await withThrowingTaskGroup(of: ProviderAnswer?.self) { group in
            group.addTask {
                try await Self.exchange(
                    prepared, client: client, maxBytes: maxBytes, deadline: .now() + TimeAmount(deadline))
            }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            // The first to finish decides; leaving the group cancels the other (the timer, or
            // the read, whose cancellation closes the connection).
            defer { group.cancelAll() }
            guard let first = try await group.next(), let answer = first else { throw Failure.deadline }
            return answer
        }
    }

    private static func exchange(_ request: HTTPClientRequest, client: HTTPClient, maxBytes: Int, deadline: NIODeadline)
        async throws -> ProviderAnswer
    {
        let response = try await client.execute(request, deadline: deadline)
        if let announced = response.headers.first(name: "content-length").flatMap(Int.init), announced > maxBytes {
            throw Failure.tooBig(maxBytes: maxBytes)
        }
        var body = ByteBuffer()
        for try await part in response.body {
            guard body.readableBytes + part.readableBytes <= maxBytes else { throw Failure.tooBig(maxBytes: maxBytes) }
            body.writeImmutableBuffer(part)
        }
        // A cancelled read ends the body early, as if it were whole.
        try Task.checkCancellation()
        var headers: [String: String] = [:]
        for (name, value) in response.headers {
            let key = name.lowercased()
            headers[key] = headers[key].map { $0 + ", " + value } ?? value
        }
        return ProviderAnswer(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
    }
}
