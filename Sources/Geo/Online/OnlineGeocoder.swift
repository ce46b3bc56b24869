import BoundedHTTP
import Foundation

/// A Nominatim or Photon adapter: at most one request per `minimumInterval`, answers cached,
/// and the offline gazetteer (with a notice) when the service cannot be reached.
public struct OnlineGeocoder: Geocoder {
    /// The online services understood.
    public enum Service: String, Sendable, CaseIterable {
        case nominatim
        case photon

        /// The public instance (mind its usage policy) used when no URL is given.
        public var defaultBaseURL: String {
            switch self {
            case .nominatim: "https://nominatim.openstreetmap.org"
            case .photon: "https://photon.komoot.io"
            }
        }

        /// The name users see in messages.
        public var displayName: String {
            switch self {
            case .nominatim: "Nominatim"
            case .photon: "Photon"
            }
        }
    }

    public let service: Service
    public let settings: OnlineGeocoderSettings
    private let fallback: (any Geocoder)?
    private let http: any HTTPExchanging
    private let limiter: RateLimiter
    private let cache = ResultCache()

    /// - Parameters:
    ///   - fallback: answers when the service is unreachable (nil: throw `.unreachable`).
    ///   - http: the HTTP client (its answers read with a cap and a deadline).
    public init(
        service: Service, settings: OnlineGeocoderSettings, fallback: (any Geocoder)? = OfflineGeocoder(),
        http: any HTTPExchanging = BoundedHTTPClient()
    ) {
        self.service = service
        self.settings = settings
        self.fallback = fallback
        self.http = http
        self.limiter = RateLimiter(interval: settings.minimumInterval)
    }

    public func geocode(_ query: String) async throws(GeocodeError) -> GeocodeResult {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { throw .empty }
        guard PlaceQuery(trimmed) != nil, let request = request(for: trimmed) else {
            throw .notFound(query: OfflineGeocoder.shortened(trimmed))
        }
        let key = NameFolding.fold(trimmed)
        if let cached = await cache.value(for: key) { return cached }

        await limiter.acquire()
        if let cached = await cache.value(for: key) {
            await limiter.release()
            return cached
        }
        let exchange: Result<HTTPAnswer, HTTPFailure>
        do {
            exchange = .success(
                try await http.exchange(request, maxBytes: Self.maxAnswerBytes, deadline: .seconds(settings.timeout)))
        } catch {
            exchange = .failure(error)
        }
        await limiter.release()

        let placemarks: [Placemark]
        switch exchange {
        case .failure(.tooBig):
            return try await fallBack(trimmed, reason: "sent an answer bigger than \(Self.maxAnswerBytes / 1_048_576) MB")
        case .failure(.malformedAnswer):
            return try await fallBack(trimmed, reason: "sent an answer that could not be read")
        case .failure:
            return try await fallBack(trimmed, reason: "is unreachable")
        case .success(let answer):
            let status = answer.status
            guard status == 200 else { return try await fallBack(trimmed, reason: "answered HTTP \(status)") }
            do {
                placemarks = try parse(answer.body)
            } catch {
                return try await fallBack(trimmed, reason: "sent an answer that could not be read")
            }
        }
        guard let best = placemarks.first else { throw .notFound(query: OfflineGeocoder.shortened(trimmed)) }
        let result = GeocodeResult(best: best, alternatives: Array(placemarks.dropFirst()))
        await cache.store(result, for: key)
        return result
    }

    // MARK: - Helpers

    /// The most of an answer read: a few places of JSON are some kilobytes.
    static let maxAnswerBytes = 2 << 20

    func request(for query: String) -> HTTPRequest? {
        let path = service == .nominatim ? "search" : "api"
        guard
            var components = URLComponents(
                url: settings.baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        else { return nil }
        var items = [
            URLQueryItem(name: "q", value: query), URLQueryItem(name: "limit", value: String(settings.resultLimit)),
        ]
        if service == .nominatim { items.append(URLQueryItem(name: "format", value: "jsonv2")) }
        components.queryItems = items
        guard let url = components.url else { return nil }
        return HTTPRequest(
            url: url, fields: [HTTPField("User-Agent", settings.userAgent), HTTPField("Accept", "application/json")])
    }

    private func parse(_ data: Data) throws -> [Placemark] {
        switch service {
        case .nominatim: try NominatimResponse.placemarks(from: data)
        case .photon: try PhotonResponse.placemarks(from: data)
        }
    }

    private func fallBack(_ query: String, reason: String) async throws(GeocodeError) -> GeocodeResult {
        guard let fallback else { throw .unreachable(service: service.displayName) }
        var result = try await fallback.geocode(query)
        let notice = "online geocoder \(service.displayName) \(reason); used the offline gazetteer"
        result.notice = [notice, result.notice].compactMap { $0 }.joined(separator: ". ")
        return result
    }
}
