import Foundation
import OnTheMapModels
import ServerConfig

/// The server's few outgoing requests (a provider's token check and profile), through the
/// configured `ProviderExchange`: at most `maxBytes` of an answer read and `deadline` for the
/// whole exchange (not an idle timeout).
struct ProviderHTTP: Sendable {
    /// An answer: status, headers (names lowercased) and the JSON object of the body, if it was one.
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var json: JSONValue
    }

    /// Who carries the requests (`ServerConfiguration.providerExchange`).
    var exchange: any ProviderExchange = BoundedHTTPProviderExchange()
    /// How long a whole request to a provider may take before the login fails with 502.
    var deadline: Duration = .seconds(10)
    /// Bigger answers are not a profile: refused as unreachable.
    static let maxBytes = 64 * 1024

    /// `GET url` with `headers`; throws `ProviderUnreachable` when there is no HTTP answer.
    func get(_ url: URL, headers: [String: String] = [:]) async throws -> Reply {
        try await send("GET", url, headers: headers)
    }

    /// `method url` with `headers` and `body`; throws `ProviderUnreachable` when there is no HTTP
    /// answer within the deadline and the cap.
    func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) async throws -> Reply {
        var fields = ["Accept": "application/json", "User-Agent": "onthemap-server"]
        for (name, value) in headers { fields[name] = value }
        let answer: ProviderAnswer
        do {
            answer = try await exchange.send(
                ProviderRequest(method: method, url: url, headers: fields, body: body), maxBytes: Self.maxBytes,
                deadline: deadline)
        } catch {
            throw ProviderUnreachable()
        }
        let object = (try? JSONSerialization.jsonObject(with: answer.body)).flatMap { JSONValue(any: $0) } ?? .null
        return Reply(status: answer.status, headers: answer.headers, json: object)
    }
}

/// The provider gave no usable answer (down, slow, too big, not HTTP): 502, try again later.
struct ProviderUnreachable: Error {}
