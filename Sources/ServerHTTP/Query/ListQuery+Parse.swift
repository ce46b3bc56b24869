import Foundation
import ServerQuery
import ServerStorage

/// A `GET StudentLocation` request's query string read into a `ListQuery` (the query language's
/// refusals are the API's: 102, 124).
extension ListQuery {
    /// Reads Parse's query parameters (`limit skip order count keys where`, and v1's
    /// `uniqueKey`), refusing anything else with 102 as Parse Server does.
    ///
    /// Unlike Parse, an unknown `order` key is refused (102) instead of silently ignored, so the
    /// classic `order=-updateAt` typo is caught.
    static func parse(
        _ parameters: [(String, String)], defaultLimit: Int, maxLimit: Int, allowUniqueKeyParameter: Bool
    ) throws(APIFailure) -> ListQuery {
        var query = ListQuery(limit: defaultLimit)
        // One count for the whole request: every `where` and `uniqueKey` parameter together.
        var limits = WhereLimits()
        for (name, value) in parameters {
            switch name {
            case "limit":
                guard let limit = Int(value), limit >= 0 else { throw .invalidQuery("Invalid limit: \(value)") }
                query.limit = min(limit, maxLimit)
            case "skip":
                guard let skip = Int(value), skip >= 0, skip <= 10_000_000 else {
                    throw .invalidQuery("Invalid skip: \(value)")
                }
                query.skip = skip
            case "order":
                query.order = try parseOrder(value)
            case "count":
                query.includeCount = ["1", "true"].contains(value)
            case "keys":
                query.keys = Set(value.split(separator: ",").compactMap { LocationField(rawValue: $0.trimmingCharacters(in: .whitespaces)) })
            case "where":
                do throws(QueryRefusal) {
                    query.predicate = query.predicate.and(try WhereParser.parse(value, limits: &limits))
                } catch {
                    throw APIFailure(error)
                }
            case "uniqueKey" where allowUniqueKeyParameter:
                do throws(QueryRefusal) { try limits.countClause() } catch { throw APIFailure(error) }
                query.predicate = query.predicate.and(.compare(.uniqueKey, .equal, .text(value)))
            default:
                throw .invalidQuery("Invalid parameter for query: \(name)")
            }
        }
        return query
    }

    /// The most `order` keys a list takes: one per field (a key given twice sorts nothing more).
    /// Thousands of keys had made an `ORDER BY` the database refused (500).
    package static var maxOrderKeys: Int { LocationField.allCases.count }

    private static func parseOrder(_ text: String) throws(APIFailure) -> [SortKey] {
        var keys: [SortKey] = []
        let parts = text.split(separator: ",")
        guard parts.count <= maxOrderKeys else {
            throw .invalidQuery("Too many order keys: at most \(maxOrderKeys).")
        }
        for part in parts {
            // Foundation's trimming only when a key has something besides a name and its `-`.
            let bare = part.unicodeScalars.allSatisfy { $0 == "-" || $0.isASCIILetter }
            var name = bare ? String(part) : part.trimmingCharacters(in: .whitespaces)
            let descending = name.hasPrefix("-")
            if descending { name.removeFirst() }
            guard let field = LocationField(rawValue: name) else {
                throw .invalidQuery("Invalid order key: \(name). Fields: \(LocationField.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            keys.append(SortKey(field: field, descending: descending))
        }
        return keys
    }
}

/// Splits a raw query string as Parse's Express server did: `&`-separated, percent-decoded, `+` is a space.
/// The separators are found among the bytes, as Express's `split('&')` found them among UTF-16
/// units (a `&` followed by a combining mark still separates).
enum RawQuery {
    static func parse(_ query: String?) -> [(String, String)] {
        guard let query, !query.isEmpty else { return [] }
        var parameters: [(String, String)] = []
        for pair in query.utf8.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let name = decode(pair[..<(equals ?? pair.endIndex)])
            guard !name.isEmpty else { continue }
            parameters.append((name, equals.map { decode(pair[pair.index(after: $0)...]) } ?? ""))
        }
        return parameters
    }

    /// A name or value as text: as it is when it holds no `%` and no `+` (the app's queries),
    /// else through Foundation's percent-decoding (`+` first made a space), as it is when that
    /// fails (a stray `%`, bytes that are not UTF-8).
    private static func decode(_ bytes: Substring.UTF8View) -> String {
        let text = Substring(bytes)
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(text) }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
