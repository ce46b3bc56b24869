import Foundation

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
/// The server's is `BoundedHTTPProviderExchange` (ServerHTTP); tests inject their own through
/// `ServerConfiguration.providerExchange`.
package protocol ProviderExchange: Sendable {
    /// The answer, or a throw when there is none within `deadline` and `maxBytes` (the caller
    /// words every such failure as "the provider is unreachable").
    func send(_ request: ProviderRequest, maxBytes: Int, deadline: Duration) async throws -> ProviderAnswer
}
