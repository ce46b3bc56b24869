import Foundation

/// Which generation of the Udacity endpoints a server speaks.
public enum APIDialect: String, Sendable, CaseIterable, Codable {
    /// `/v1/session`, `/v1/users/<key>` (flat), `/v1/StudentLocation` — the 2019 API.
    case v1
    /// `/api/session`, `/api/users/<key>` (wrapped in `{"user":…}`), `/parse/classes/StudentLocation`.
    case legacy
}

/// Where the client talks to and how.
public struct APIConfiguration: Sendable {
    /// The Parse keys published in the original project documents; harmless to send to a v1 server.
    public static let seedParseApplicationID = "QrX47CA9cyuGewLdsL7o5Eb8iug6Em8ye0dnAblr"
    public static let seedParseRESTAPIKey = "QuWThTdiRmTux3YaDseUSEpUKo7aBYM737yKd4gY"

    /// The server's root, for example `http://127.0.0.1:8080`.
    public var baseURL: URL
    public var dialect: APIDialect
    /// Sent as `X-Parse-Application-Id` on StudentLocation requests when set.
    public var parseApplicationID: String?
    /// Sent as `X-Parse-REST-API-Key` on StudentLocation requests when set.
    public var parseRESTAPIKey: String?
    /// Seconds before a request counts as "timed out".
    public var timeout: TimeInterval
    /// The most of one answer the client reads (a page of 1,000 rows is about 300 KB); past it
    /// the request fails with `APIError.answerTooBig`.
    public static let maxAnswerBytes = 8 * 1024 * 1024

    public init(
        baseURL: URL, dialect: APIDialect = .v1,
        parseApplicationID: String? = APIConfiguration.seedParseApplicationID,
        parseRESTAPIKey: String? = APIConfiguration.seedParseRESTAPIKey, timeout: TimeInterval = 15
    ) {
        self.baseURL = baseURL
        self.dialect = dialect
        self.parseApplicationID = parseApplicationID
        self.parseRESTAPIKey = parseRESTAPIKey
        self.timeout = timeout
    }

    /// "127.0.0.1:8080" — how errors name the server.
    public var serverDescription: String {
        guard let host = baseURL.host else { return baseURL.absoluteString }
        return baseURL.port.map { "\(host):\($0)" } ?? host
    }
}
