import BoundedHTTP
import Foundation
import OnTheMapModels

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
/// The core's default is `BoundedHTTPProviderExchange`. `onthemap-server` (and the tests that start
/// servers in-process) inject `AsyncHTTPProviderExchange` from `OnTheMapServerProviderClient`
/// through `ServerConfiguration.providerExchange`, the way `PostgresOpener` is injected. Both read
/// with backpressure: an answer of no announced length is not read ahead of the cap.
package protocol ProviderExchange: Sendable {
    /// The answer, or a throw when there is none within `deadline` and `maxBytes` (the caller
    /// words every such failure as "the provider is unreachable").
    func send(_ request: ProviderRequest, maxBytes: Int, deadline: Duration) async throws -> ProviderAnswer
}

/// The core's provider exchange, through `BoundedHTTPClient`: one connection an exchange, no
/// cookies, no cache, no redirects; `http://` read from the socket only up to the cap, `https://`
/// through libcurl, whose write callback stops the transfer at the cap. It serves the terminal
/// app's built-in server, which links no NIOSSL (`onthemap-server` uses `AsyncHTTPProviderExchange`).
package struct BoundedHTTPProviderExchange: ProviderExchange {
    private let http: any HTTPExchanging

    package init(http: any HTTPExchanging = BoundedHTTPClient()) {
        self.http = http
    }

    package func send(_ request: ProviderRequest, maxBytes: Int, deadline: Duration) async throws -> ProviderAnswer {
        let outgoing = HTTPRequest(
            method: request.method, url: request.url,
            fields: request.headers.sorted { $0.key < $1.key }.map { HTTPField($0.key, $0.value) }, body: request.body)
        let answer = try await http.exchange(outgoing, maxBytes: maxBytes, deadline: deadline)
        var fields: [String: String] = [:]
        for field in answer.fields where fields[field.name.lowercased()] == nil {
            fields[field.name.lowercased()] = field.value
        }
        return ProviderAnswer(status: answer.status, headers: fields, body: answer.body)
    }
}
