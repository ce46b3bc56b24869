import Foundation

/// "just now", "5 min ago", "3 h ago", "2 days ago": how old a date is, for people.
public enum AgeText {
    public static func text(from date: Date, now: Date) -> String {
        let seconds = max(0, now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(Int(seconds / 60)) min ago"
        case ..<86_400: return "\(Int(seconds / 3600)) h ago"
        case ..<(86_400 * 60):
            let days = Int(seconds / 86_400)
            return "\(days) day\(days == 1 ? "" : "s") ago"
        default: return "\(Int(seconds / (86_400 * 30))) months ago"
        }
    }
}
