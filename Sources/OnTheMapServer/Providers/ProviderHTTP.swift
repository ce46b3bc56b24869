import Foundation
import OnTheMapModels

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server's few outgoing requests (a provider's token check and profile), through
/// Foundation's URLSession: no cookies, no cache, a short timeout, a small answer.
struct ProviderHTTP: Sendable {
    /// An answer: status, headers (names lowercased) and the JSON object of the body, if it was one.
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var json: JSONValue
    }

    /// Seconds a request to a provider may take before the login fails with 502.
    var timeout: TimeInterval = 10
    /// Bigger answers are not a profile: refused as unreachable.
    static let maxBytes = 64 * 1024

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    /// `GET url` with `headers`; throws `ProviderUnreachable` when there is no HTTP answer.
    func get(_ url: URL, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("onthemap-server", forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await Self.session.data(for: request)
        } catch {
            throw ProviderUnreachable()
        }
        guard let http = response as? HTTPURLResponse, data.count <= Self.maxBytes else { throw ProviderUnreachable() }
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { fields[key.lowercased()] = value }
        }
        let object = (try? JSONSerialization.jsonObject(with: data)).flatMap { JSONValue(any: $0) } ?? .null
        return Reply(status: http.statusCode, headers: fields, json: object)
    }
}

/// The provider gave no usable answer (down, slow, not HTTP): 502, try again later.
struct ProviderUnreachable: Error {}
