import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OnTheMapModels

/// Builds JSON responses, with the `)]}'` prefix where the session API had it.
package enum JSONResponse {
    package static func make(
        status: HTTPResponse.Status = .ok, _ value: some Encodable, prefixed: Bool = false,
        headers: HTTPFields = [:]
    ) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return raw(status: status, data, prefixed: prefixed, headers: headers)
    }

    package static func raw(status: HTTPResponse.Status = .ok, _ data: some Collection<UInt8>, prefixed: Bool = false, headers: HTTPFields = [:]) -> Response {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(data.count + 5)
        if prefixed { buffer.writeBytes(XSSIPrefix.bytes) }
        buffer.writeBytes(data)
        return body(status: status, buffer, headers: headers)
    }

    /// A JSON response whose body is `buffer` as it is (shared, not copied).
    static func body(status: HTTPResponse.Status = .ok, _ buffer: ByteBuffer, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        // Room for what follows on every answer: this field, Content-Length and the trust rules'
        // Cache-Control and Vary, in one allocation.
        fields.reserveCapacity(fields.count + 4)
        if fields.contains(.contentType) {
            fields[.contentType] = contentType.value
        } else {
            fields.append(contentType)
        }
        return Response(status: status, headers: fields, body: .init(byteBuffer: buffer))
    }

    /// Made once: an `HTTPField` made from a string validates its value.
    private static let contentType = HTTPField(name: .contentType, value: "application/json; charset=utf-8")
}
