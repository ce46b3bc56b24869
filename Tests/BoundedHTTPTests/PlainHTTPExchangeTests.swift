import BoundedHTTP
import Foundation
import Testing

@Suite struct PlainHTTPExchangeTests {
    @Test func anUnknownSchemeIsRefused() async {
        await #expect(throws: HTTPFailure.transport("not an http:// or https:// URL")) {
            try await BoundedHTTPClient().exchange(
                HTTPRequest(url: URL(string: "ftp://127.0.0.1/")!), maxBytes: 10, deadline: .seconds(1))
        }
    }
}
