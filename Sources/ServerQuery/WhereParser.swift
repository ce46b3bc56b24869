import Foundation
import OnTheMapModels
import ServerStorage
import enum ServerStorage.Predicate

/// Parses Parse's `where` JSON into a `Predicate`, with Parse's error codes.
///
/// Supported: equality, `$lt $lte $gt $gte $ne $in $nin $exists $regex` (+ `$options` of
/// `imxs`), `$or $and $nor`, and `{"__type":"Date","iso":…}` values. Unknown operators are
/// refused with 107, bad key names with 105, a malformed `$or` with 102. A valid key that is
/// not a field of the class matches as a missing field would (equality never, `$exists:false`
/// always), as in Parse. Past a cap of `WhereLimits`: 124 "query too expensive".
package enum WhereParser {
    static let maxRegexLength = 256

    /// One `where` parameter; `limits` counts over the whole request, so that repeating `where`
    /// does not multiply the caps.
    package static func parse(_ text: String, limits: inout WhereLimits) throws(QueryRefusal) -> Predicate {
        guard let data = text.data(using: .utf8),
            let json = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { throw .invalidJSON("invalid JSON in where") }
        // A NUL ("\u0000") in a key or a value: both databases take values as C strings, which
        // a NUL cuts short (SQLite then matched the rows of the text before it), and PostgreSQL's
        // text cannot hold one. No stored text has one, so it is refused rather than guessed at.
        guard !holdsNUL(json) else { throw .invalidQuery("bad value: a NUL character") }
        return try parse(json, depth: 0, limits: &limits)
    }

    private static func holdsNUL(_ json: JSONValue) -> Bool {
        switch json {
        case .string(let text): text.utf8.contains(0)
        case .array(let items): items.contains(where: holdsNUL)
        case .object(let members): members.contains { $0.key.utf8.contains(0) || holdsNUL($0.value) }
        case .null, .bool, .number: false
        }
    }

    private static func parse(_ json: JSONValue, depth: Int, limits: inout WhereLimits) throws(QueryRefusal) -> Predicate {
        guard case .object(let clauses) = json else { throw .invalidQuery("where must be a JSON object") }
        var parts: [Predicate] = []
        for (key, value) in clauses.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "$or", "$and", "$nor":
                guard case .array(let items) = value, !items.isEmpty else {
                    throw .invalidQuery("bad \(key) format - use an array value")
                }
                try WhereLimits.checkBranches(items.count, depth: depth + 1)
                var subpredicates: [Predicate] = []
                for item in items {
                    guard case .object = item else { throw .invalidQuery("bad \(key) format - use an array of objects") }
                    subpredicates.append(try parse(item, depth: depth + 1, limits: &limits))
                }
                switch key {
                case "$or": parts.append(.or(subpredicates))
                case "$and": parts.append(.and(subpredicates))
                default: parts.append(.not(.or(subpredicates)))
                }
            default:
                if key.hasPrefix("$") { throw .invalidJSON("bad constraint: \(key)") }
                guard isValidKeyName(key) else { throw .invalidKeyName("Invalid key name: \(key)") }
                parts.append(try constraint(on: LocationField(rawValue: key), value: value, limits: &limits))
            }
        }
        return parts.reduce(.always) { $0.and($1) }
    }

    /// `^[a-zA-Z][a-zA-Z0-9_.]*$`, as Parse checks it.
    static func isValidKeyName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.isASCIILetter, key.count <= 128 else { return false }
        return key.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" || $0 == "." }
    }

    private static func constraint(on field: LocationField?, value: JSONValue, limits: inout WhereLimits) throws(QueryRefusal)
        -> Predicate
    {
        if case .object(let operators) = value, operators.keys.contains(where: { $0.hasPrefix("$") }) {
            var parts: [Predicate] = []
            for (op, operand) in operators.sorted(by: { $0.key < $1.key }) {
                try limits.countClause()
                if op == "$regex" { try limits.countRegex() }
                if case .array(let items) = operand { try limits.countValues(items.count) }
                parts.append(try apply(op, operand, operators: operators, to: field))
            }
            return parts.reduce(.always) { $0.and($1) }
        }
        try limits.countClause()
        // Plain value: equality.
        guard let field else { return value == .null ? .always : .never }
        if value == .null { return .isNull(field, true) }
        guard let bound = try scalar(value, for: field) else { return .never }
        return .compare(field, .equal, bound)
    }

    private static func apply(
        _ op: String, _ operand: JSONValue, operators: [String: JSONValue], to field: LocationField?
    ) throws(QueryRefusal) -> Predicate {
        switch op {
        case "$lt", "$lte", "$gt", "$gte", "$ne":
            let comparison: Predicate.Comparison =
                switch op {
                case "$lt": .less
                case "$lte": .lessOrEqual
                case "$gt": .greater
                case "$gte": .greaterOrEqual
                default: .notEqual
                }
            guard let field else { return op == "$ne" ? .always : .never }
            if operand == .null { return op == "$ne" ? .isNull(field, false) : .never }
            guard let bound = try scalar(operand, for: field) else {
                if case .array = operand { throw .invalidJSON("bad constraint: \(op) takes a single value") }
                return op == "$ne" ? .always : .never
            }
            // `$ne` matches missing fields too, as in Parse.
            return op == "$ne" ? .or([.compare(field, .notEqual, bound), .isNull(field, true)]) : .compare(field, comparison, bound)
        case "$in", "$nin":
            guard case .array(let items) = operand else { throw .invalidJSON("bad constraint: \(op) takes an array") }
            guard items.count <= 1000 else { throw .invalidQuery("\(op) takes at most 1000 values") }
            guard let field else { return op == "$in" ? .never : .always }
            var values: [SQLValue] = []
            var includesNull = false
            for item in items {
                if item == .null {
                    includesNull = true
                } else if let bound = try scalar(item, for: field) {
                    values.append(bound)
                }
            }
            var matches: Predicate = values.isEmpty ? .never : .inList(field, values)
            if includesNull { matches = .or([matches, .isNull(field, true)]) }
            return op == "$in" ? matches : .not(.and([.isNull(field, false), matches]))
        case "$exists":
            guard case .bool(let exists) = operand else { throw .invalidJSON("bad constraint: $exists takes true or false") }
            guard let field else { return exists ? .never : .always }
            return .isNull(field, !exists)
        case "$regex":
            guard case .string(let pattern) = operand else { throw .invalidJSON("bad constraint: $regex takes a string") }
            guard pattern.utf8.count <= maxRegexLength else { throw .invalidQuery("$regex is longer than \(maxRegexLength) bytes") }
            var options = ""
            if let given = operators["$options"] {
                guard case .string(let text) = given, text.allSatisfy({ "imxs".contains($0) }) else {
                    throw .invalidQuery("bad $options value; use a string of i, m, x, s")
                }
                options = text
            }
            guard (try? NSRegularExpression(pattern: pattern, options: RegexOptions.parse(options))) != nil else {
                throw .invalidQuery("bad $regex: not a valid regular expression")
            }
            guard let field else { return .never }
            return .regex(field, pattern: pattern, options: options)
        case "$options":
            guard operators["$regex"] != nil else { throw .invalidQuery("$options needs a $regex") }
            return .always
        default:
            throw .invalidJSON("bad constraint: \(op)")
        }
    }

    /// A JSON scalar as the SQL value to compare `field` with; `nil` when no row can equal it.
    private static func scalar(_ value: JSONValue, for field: LocationField) throws(QueryRefusal) -> SQLValue? {
        switch value {
        case .string(let text):
            // A number field never equals or orders against text (as in Parse), and PostgreSQL
            // would refuse the comparison outright.
            return field.kind == .number ? nil : .text(text)
        case .number(let number):
            guard number.isFinite else { return nil }
            if field.kind == .text, let integer = Int64(exactly: number) { return .text(String(integer)) }
            if field.kind == .text { return .text(String(number)) }
            return .real(number)
        case .bool:
            return nil
        case .object(let object):
            if object["__type"] == .string("Date") {
                guard let iso = object["iso"]?.stringValue, let date = WireDate.date(from: iso) else {
                    throw .invalidJSON("bad constraint: invalid Date")
                }
                return .text(WireDate.string(from: date))
            }
            return nil
        case .array, .null:
            return nil
        }
    }
}

extension Unicode.Scalar {
    package var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
