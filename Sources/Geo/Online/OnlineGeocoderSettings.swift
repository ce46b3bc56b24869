import Foundation

/// Where an online geocoder is and how politely to use it.
public struct OnlineGeocoderSettings: Sendable, Hashable {
    /// The service root, for example https://nominatim.openstreetmap.org or a self-hosted one.
    public var baseURL: URL
    /// Sent with every request; public services require one that identifies the application.
    public var userAgent: String
    /// The least time from the end of one request to the start of the next, one request at a time
    /// (Nominatim's usage policy: at most 1 request a second).
    public var minimumInterval: Duration
    /// How long one request may take before the service counts as unreachable.
    public var timeout: TimeInterval
    /// How many results to ask for (the first is the best, the rest are alternatives).
    public var resultLimit: Int

    public static let defaultUserAgent = "onthemap/1.0 (terminal On the Map; https://github.com/onthemap/onthemap)"

    public init(
        baseURL: URL, userAgent: String = Self.defaultUserAgent, minimumInterval: Duration = .seconds(1),
        timeout: TimeInterval = 10, resultLimit: Int = 5
    ) {
        self.baseURL = baseURL
        self.userAgent = userAgent
        self.minimumInterval = minimumInterval
        self.timeout = timeout
        self.resultLimit = min(max(1, resultLimit), 20)
    }
}
