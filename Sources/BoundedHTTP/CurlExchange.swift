import Foundation

/// `https://` exchanges through libcurl, loaded on first use (to be written).
enum CurlExchange {
    static func exchange(_ request: HTTPRequest, maxBytes: Int, deadline: Duration, caFile: String?)
        async throws(HTTPFailure) -> HTTPAnswer
    {
        throw .transport("not yet")
    }
}
