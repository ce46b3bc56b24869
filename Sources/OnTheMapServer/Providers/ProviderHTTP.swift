import Foundation
import OnTheMapModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server's few outgoing requests (a provider's token check and profile), through
/// Foundation's URLSession: no cookies, no cache, at most `maxBytes` read (streamed: reading
/// stops at the cap) and `deadline` seconds for the whole exchange (not an idle timeout).
struct ProviderHTTP: Sendable {
    /// An answer: status, headers (names lowercased) and the JSON object of the body, if it was one.
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var json: JSONValue
    }

    /// Seconds a whole request to a provider may take before the login fails with 502.
    var deadline: TimeInterval = 10
    /// Bigger answers are not a profile: refused as unreachable.
    static let maxBytes = 64 * 1024

    private static let configuration: URLSessionConfiguration = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        return configuration
    }()

    /// `GET url` with `headers`; throws `ProviderUnreachable` when there is no HTTP answer.
    func get(_ url: URL, headers: [String: String] = [:]) async throws -> Reply {
        try await send("GET", url, headers: headers)
    }

    /// `method url` with `headers` and `body`; throws `ProviderUnreachable` when there is no HTTP
    /// answer within the deadline and the cap.
    func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) async throws -> Reply {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: deadline)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("onthemap-server", forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let http: HTTPURLResponse
        let data: Data
        do {
            (http, data) = try await BoundedDownload.fetch(
                request, configuration: Self.configuration, maxBytes: Self.maxBytes, deadline: deadline)
        } catch {
            throw ProviderUnreachable()
        }
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key.lowercased()] = value }
        }
        let object = (try? JSONSerialization.jsonObject(with: data)).flatMap { JSONValue(any: $0) } ?? .null
        return Reply(status: http.statusCode, headers: fields, json: object)
    }
}

/// The provider gave no usable answer (down, slow, too big, not HTTP): 502, try again later.
struct ProviderUnreachable: Error {}
