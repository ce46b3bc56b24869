import Foundation
import SafeText

/// Whether a record's link may be opened: a link without a scheme gets `https://`; anything
/// that is not http(s) afterwards, or that could pass for an option (`-…`), is refused.
public enum LinkPolicy {
    /// The verdict on one link.
    public enum Decision: Sendable, Equatable {
        case open(String)
        case refuse(String)
    }

    public static func decide(_ raw: String) -> Decision {
        let text = SafeText.clean(raw).trimmingCharacters(in: .whitespaces)
        let shown = SafeText.truncate(text, toWidth: 60)
        guard !text.isEmpty else { return .refuse("This location has no link.") }
        guard !text.hasPrefix("-") else { return .refuse("Not opening “\(shown)”: it is not a web link.") }
        guard !text.contains(where: { $0 == " " }) else {
            return .refuse("Not opening “\(shown)”: it is not a web link.")
        }
        let candidate = scheme(of: text) == nil ? "https://" + text : text
        guard let scheme = scheme(of: candidate), ["http", "https"].contains(scheme) else {
            return .refuse("Not opening “\(shown)”: only http and https links are opened.")
        }
        guard let url = URL(string: candidate), let host = url.host, !host.isEmpty else {
            return .refuse("Not opening “\(shown)”: it is not a valid web address.")
        }
        return .open(candidate)
    }

    /// The lowercased scheme, when `text` starts with one (`x:` where what follows is not a port).
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        guard let first = name.first, first.isASCII, first.isLetter,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) })
        else { return nil }
        let rest = text[text.index(after: colon)...]
        // "example.com:8080/x" is a host and a port, not a scheme.
        if let next = rest.first, next.isNumber, name.contains(".") || name == "localhost" { return nil }
        return name.lowercased()
    }
}
