import BoundedHTTP
import Foundation
import NIOConcurrencyHelpers
import OnTheMapModels
import ServerConfig

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
