import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OnTheMapModels

extension HTTPField.Name {
    static let parseApplicationID = HTTPField.Name("X-Parse-Application-Id")!
    static let parseRESTAPIKey = HTTPField.Name("X-Parse-REST-API-Key")!
    static let xsrfToken = HTTPField.Name("X-XSRF-TOKEN")!
}

extension Request {
    /// The body as JSON, at most `limit` bytes.
    /// - Throws: `APIFailure` 413 when larger (in the family of `invalid`); `invalid` when it is not JSON.
    mutating func jsonBody(limit: Int, invalid: APIFailure) async throws -> JSONValue {
        let buffer: ByteBuffer
        do {
            buffer = try await collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            // The session API answers in its own (prefixed) style, StudentLocation in the plain one.
            if case .udacity = invalid.body {
                throw APIFailure.udacity(.contentTooLarge, "request body larger than \(limit) bytes")
            }
            throw APIFailure.bodyTooLarge(limit: limit)
        }
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer.readableBytesView)) else {
            throw invalid
        }
        return json
    }

    /// The session id of `Authorization: Bearer <id>`, if sent.
    package var bearerToken: String? {
        guard let value = headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// The value of cookie `name` in the `Cookie` header(s).
    func cookie(_ name: String) -> String? {
        for header in headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return String(parts[1]).trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }
}

extension JSONValue {
    /// Parse's name for the type of a value, as in "expected Number but got String".
    var parseTypeName: String {
        switch self {
        case .null: return "Null"
        case .bool: return "Boolean"
        case .number: return "Number"
        case .string: return "String"
        case .array: return "Array"
        case .object: return "Object"
        }
    }
}
