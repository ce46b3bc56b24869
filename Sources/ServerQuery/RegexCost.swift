import ServerStorage

/// What a `$regex` may cost per row it is tried on. A backtracking matcher (ICU's, PostgreSQL's)
/// takes time exponential in the text's length for a repeated group that can match the same
/// text in more than one way — `(.|.)*`, `(a+)+`, `(\w*)*` — or for a backreference; such a
/// pattern has no cost that a budget per write can bound. LiveQuery refuses one at `subscribe`
/// (every write would run it on the row before and after); REST lists run it under the query
/// budget and the expensive-query gate.
enum RegexCost {
    /// More unbounded repeats than this in one pattern (`.*a.*b.*c.*d.*e`) are polynomial in the
    /// text's length to a degree no budget bounds either.
    static let maxRepeats = 4

    /// The first thing in `pattern` or `options` that would make ICU read the pattern otherwise
    /// than `isUnbounded` does, named for the refusal; `nil` when there is none. In extended
    /// mode (the `x` option, `(?x)`) ICU skips white space and `#` comments, `(?#…)` is a comment,
    /// and `\Q…\E` quotes: each can hide a repeated group from this reading (`(?x)^(.+) +X$`,
    /// `\Q[\E(a+)+]`). Inline flags are refused whole, as a flag group's parentheses are not a
    /// group's.
    static func unreadFeature(_ pattern: String, options: String) -> String? {
        if options.contains("x") { return "the x option" }
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        while index < scalars.count {
            switch scalars[index] {
            case "\\":
                if index + 1 < scalars.count, scalars[index + 1] == "Q" { return "\\Q…\\E quoting" }
                index += 2
            case "(" where index + 2 < scalars.count && scalars[index + 1] == "?":
                let next = scalars[index + 2]
                if next == "#" { return "(?#…) comments" }
                if next == "-" || next.properties.isAlphabetic { return "inline flags such as (?x) or (?i)" }
                index += 1
            default:
                index += 1
            }
        }
        return nil
    }

    /// Whether `pattern` has a repeated group that can match in more than one way, a
    /// backreference, or more than `maxRepeats` unbounded repeats.
    static func isUnbounded(_ pattern: String) -> Bool {
        let scalars = Array(pattern.unicodeScalars)
        /// Per open group: whether it holds a repeat or an alternation.
        var groups: [(repeats: Bool, alternates: Bool)] = [(false, false)]
        var repeats = 0
        var index = 0

        /// Whether a repeat (`*`, `+`, `{n,}`, `{n,m}` with m > n) starts at `at`; its length.
        func repeatAt(_ at: Int) -> Int? {
            guard at < scalars.count else { return nil }
            switch scalars[at] {
            case "*", "+": return 1
            case "{":
                var end = at + 1
                while end < scalars.count, scalars[end] != "}" { end += 1 }
                guard end < scalars.count else { return nil }
                let body = String(String.UnicodeScalarView(scalars[(at + 1)..<end]))
                let parts = body.split(separator: ",", omittingEmptySubsequences: false)
                guard let low = Int(parts.first ?? ""), parts.count <= 2 else { return nil }
                // `{n}` repeats a fixed number of times: one way to match, no repeat here.
                guard parts.count == 2 else { return nil }
                if parts[1].isEmpty { return end - at + 1 }
                guard let high = Int(parts[1]), high > low else { return nil }
                return end - at + 1
            default: return nil
            }
        }

        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "\\":
                if index + 1 < scalars.count, ("1"..."9").contains(scalars[index + 1]) { return true }
                index += 2
                continue
            case "[":
                // A class is one atom: skip to its closing bracket (a leading `]` or `^]` is literal).
                var end = index + 1
                if end < scalars.count, scalars[end] == "^" { end += 1 }
                if end < scalars.count, scalars[end] == "]" { end += 1 }
                while end < scalars.count, scalars[end] != "]" {
                    end += scalars[end] == "\\" ? 2 : 1
                }
                index = end + 1
            case "(":
                groups.append((false, false))
                index += 1
            case ")":
                let group = groups.count > 1 ? groups.removeLast() : (repeats: false, alternates: false)
                index += 1
                if let length = repeatAt(index) {
                    if group.repeats || group.alternates { return true }
                    repeats += 1
                    groups[groups.count - 1].repeats = true
                    index += length
                } else if group.repeats {
                    groups[groups.count - 1].repeats = true
                }
            case "|":
                groups[groups.count - 1].alternates = true
                index += 1
            default:
                if let length = repeatAt(index) {
                    repeats += 1
                    groups[groups.count - 1].repeats = true
                    index += length
                } else {
                    index += 1
                }
            }
            if repeats > maxRepeats { return true }
        }
        return false
    }
}

extension Predicate {
    /// `$regex` constraints in all.
    package var regexCount: Int {
        switch self {
        case .regex: return 1
        case .and(let parts), .or(let parts): return parts.reduce(0) { $0 + $1.regexCount }
        case .not(let inner): return inner.regexCount
        case .always, .never, .compare, .isNull, .inList: return 0
        }
    }

    /// What the first `$regex` that `RegexCost` cannot read the way ICU does uses, if any
    /// (`RegexCost.unreadFeature`).
    package var unreadRegexFeature: String? {
        switch self {
        case .regex(_, let pattern, let options): return RegexCost.unreadFeature(pattern, options: options)
        case .and(let parts), .or(let parts): return parts.lazy.compactMap(\.unreadRegexFeature).first
        case .not(let inner): return inner.unreadRegexFeature
        case .always, .never, .compare, .isNull, .inList: return nil
        }
    }

    /// The first `$regex` pattern whose cost per row no budget bounds (`RegexCost`), if any.
    package var unboundedRegex: String? {
        switch self {
        case .regex(_, let pattern, _): return RegexCost.isUnbounded(pattern) ? pattern : nil
        case .and(let parts), .or(let parts): return parts.lazy.compactMap(\.unboundedRegex).first
        case .not(let inner): return inner.unboundedRegex
        case .always, .never, .compare, .isNull, .inList: return nil
        }
    }
}
