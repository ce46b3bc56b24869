import Foundation
import OnTheMapModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request from the server to a login provider (a token check, a profile).
package struct ProviderRequest: Sendable {
    package var method: String
    package var url: URL
    /// Sent as given, one value a name.
    package var headers: [String: String]
    package var body: Data?

    package init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A provider's whole answer: status, headers (names lowercased) and a body of at most the cap.
package struct ProviderAnswer: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: Data

    package init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// One bounded exchange with a login provider: the answer is read with at most `maxBytes` of
/// body held (bigger answers are refused, however they are framed) and the whole exchange, from
/// connecting to the body's last byte, takes at most `deadline`.
///
/// The core's default is `URLSessionProviderExchange`. `onthemap-server` (and the tests that start
/// servers in-process) inject `AsyncHTTPProviderExchange` from `OnTheMapServerProviderClient`
/// through `ServerConfiguration.providerExchange`, the way `PostgresOpener` is injected: it reads
/// with backpressure, so an answer of no announced length is not read ahead of the cap.
package protocol ProviderExchange: Sendable {
    /// The answer, or a throw when there is none within `deadline` and `maxBytes` (the caller
    /// words every such failure as "the provider is unreachable").
    func send(_ request: ProviderRequest, maxBytes: Int, deadline: Duration) async throws -> ProviderAnswer
}

/// The core's provider exchange, through FoundationNetworking's URLSession (`BoundedDownload`):
/// no cookies, no cache; the delegate cancels at the cap and at the deadline. An answer that
/// announces a length past the cap is refused unread, but one of no announced length is read
/// ahead by libcurl, whose chunks FoundationNetworking queues to the delegate without
/// backpressure: up to hundreds of MB before the cancel lands. It serves the terminal app's
/// built-in server, which links no NIOSSL (`onthemap-server` uses `AsyncHTTPProviderExchange`).
package struct URLSessionProviderExchange: ProviderExchange {
    private static let configuration: URLSessionConfiguration = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        return configuration
    }()

    package init() {}

    package func send(_ request: ProviderRequest, maxBytes: Int, deadline: Duration) async throws -> ProviderAnswer {
        let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
        var outgoing = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: seconds)
        outgoing.httpMethod = request.method
        outgoing.httpBody = request.body
        for (name, value) in request.headers { outgoing.setValue(value, forHTTPHeaderField: name) }
        let (http, data) = try await BoundedDownload.fetch(
            outgoing, configuration: Self.configuration, maxBytes: maxBytes, deadline: seconds)
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key.lowercased()] = value }
        }
        return ProviderAnswer(status: http.statusCode, headers: fields, body: data)
    }
}
