import Foundation

/// Any JSON value, decoded without a schema.
///
/// The wire is loose (numbers as strings, missing fields, extra keys), so records are read
/// through this type first and validated field by field instead of failing a whole list.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value under `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let dictionary) = self { return dictionary[key] }
        return nil
    }

    /// The string, or the number written without a fraction when it is integral (`1234` → `"1234"`).
    public var stringValue: String? {
        switch self {
        case .string(let text): return text
        case .number(let number) where number.isFinite && number == number.rounded() && abs(number) < 1e15:
            return String(Int64(number))
        case .number(let number) where number.isFinite:
            return String(number)
        default: return nil
        }
    }

    /// The number, or a string that holds one (`"37.4"`).
    public var doubleValue: Double? {
        switch self {
        case .number(let number): return number
        case .string(let text): return Double(text.trimmingCharacters(in: .whitespaces))
        default: return nil
        }
    }

    /// Builds a value from a `JSONSerialization` result; other types become `nil`.
    public init?(any value: Any) {
        switch value {
        case is NSNull: self = .null
        case let text as String: self = .string(text)
        case let number as NSNumber:
            // JSONSerialization gives NSNumber for booleans too; tell them apart by their C type.
            if String(cString: number.objCType) == "c" {
                self = .bool(number.boolValue)
            } else {
                self = .number(number.doubleValue)
            }
        case let number as Double: self = .number(number)
        case let number as Int: self = .number(Double(number))
        case let flag as Bool: self = .bool(flag)
        case let array as [Any]: self = .array(array.compactMap { JSONValue(any: $0) })
        case let dictionary as [String: Any]:
            self = .object(dictionary.compactMapValues { JSONValue(any: $0) })
        default: return nil
        }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}
