import Foundation

/// `http://` exchanges over a plain socket (to be written).
enum PlainHTTPExchange {
    static func exchange(_ request: HTTPRequest, maxBytes: Int, deadline: Duration) async throws(HTTPFailure)
        -> HTTPAnswer
    {
        throw .transport("not yet")
    }
}
