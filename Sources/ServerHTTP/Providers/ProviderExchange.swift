import BoundedHTTP
import Foundation
import NIOConcurrencyHelpers
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
/// The server's is `BoundedHTTPProviderExchange`; tests inject their own through
/// `ServerConfiguration.providerExchange`.
package protocol ProviderExchange: Sendable {
    /// The answer, or a throw when there is none within `deadline` and `maxBytes` (the caller
    /// words every such failure as "the provider is unreachable").
    func send(_ request: ProviderRequest, maxBytes: Int, deadline: Duration) async throws -> ProviderAnswer
}

/// The server's provider exchange, through `BoundedHTTPClient`: one connection an exchange, no
/// cookies, no cache, no redirects, no decompression; `http://` read from the socket only up to
/// the cap, `https://` through the system's libcurl, whose write callback stops the transfer at
/// the cap — so an answer of no announced length is never read ahead of the cap.
///
/// Each exchange holds a thread while it waits (`BoundedHTTPClient` blocks off Swift's pool), so
/// at most `maximumInFlight` run at once for a server; a login beyond them is refused at once
/// (502, try again) rather than queued behind providers that answer slowly.
package struct BoundedHTTPProviderExchange: ProviderExchange {
    /// Why no exchange was made.
    package enum Failure: Error, Equatable {
        /// `maximumInFlight` exchanges are already waiting for their providers.
        case busy
    }

    package static let maximumInFlight = 64

    private let http: any HTTPExchanging
    private let inFlight: NIOLockedValueBox<Int>

    package init(http: any HTTPExchanging = BoundedHTTPClient()) {
        self.http = http
        inFlight = NIOLockedValueBox(0)
    }

    package func send(_ request: ProviderRequest, maxBytes: Int, deadline: Duration) async throws -> ProviderAnswer {
        let admitted = inFlight.withLockedValue { count in
            guard count < Self.maximumInFlight else { return false }
            count += 1
            return true
        }
        guard admitted else { throw Failure.busy }
        defer { inFlight.withLockedValue { $0 -= 1 } }
        let outgoing = HTTPRequest(
            method: request.method, url: request.url,
            fields: request.headers.sorted { $0.key < $1.key }.map { HTTPField($0.key, $0.value) }, body: request.body)
        let answer = try await http.exchange(outgoing, maxBytes: maxBytes, deadline: deadline)
        // One value a name: repeated fields joined with ", " (RFC 9110 §5.3).
        var fields: [String: String] = [:]
        for field in answer.fields {
            let name = field.name.lowercased()
            fields[name] = fields[name].map { $0 + ", " + field.value } ?? field.value
        }
        return ProviderAnswer(status: answer.status, headers: fields, body: answer.body)
    }
}
