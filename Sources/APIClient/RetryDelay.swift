import Foundation

/// "in 42 seconds", "in 15 minutes", "in 2 hours", "later": a `Retry-After` in words.
public enum RetryDelay {
    public static func text(_ seconds: Int?) -> String {
        guard let seconds, seconds > 0 else { return "later" }
        if seconds < 90 { return "in \(seconds) second\(seconds == 1 ? "" : "s")" }
        let minutes = (seconds + 59) / 60
        if minutes < 90 { return "in \(minutes) minutes" }
        let hours = (minutes + 59) / 60
        return "in \(hours) hours"
    }

    /// The seconds of a `Retry-After` header (the delay form; an HTTP date is not used by onthemap
    /// servers and reads as nil), capped at a day so a hostile value cannot read as "never".
    public static func seconds(header: String?) -> Int? {
        guard let header, let value = Int(header.trimmingCharacters(in: .whitespaces)), value >= 0 else { return nil }
        return min(value, 86_400)
    }
}
