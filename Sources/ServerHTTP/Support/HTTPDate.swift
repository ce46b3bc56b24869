import Foundation
import Synchronization

/// The `Date` header's value (RFC 9110 §5.6.7, IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`),
/// computed from the Unix time with integer arithmetic only — no `Calendar`, `DateFormatter` or
/// `TimeZone`, which in swift-foundation resolve the current zone through ICU and map its data
/// (about 1.7 MB of the app's memory with its built-in server).
enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The IMF-fixdate of `unixSeconds` (seconds since 1970-01-01 00:00:00 UTC, negative before).
    static func imfFixdate(unixSeconds: Int64) -> String {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secondOfDay = unixSeconds - days * 86_400
        let (year, month, day) = civil(daysSinceEpoch: days)
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        return "\(weekday), \(twoDigits(day)) \(months[Int(month) - 1]) \(fourDigits(year)) "
            + "\(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) GMT"
    }

    /// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`: eras of 400 years, years starting on March 1st so the leap day is last).
    static func civil(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = daysSinceEpoch + 719_468  // days from 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097  // 0...146_096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365  // 0...399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365, from March 1st
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 = March ... 11 = February
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func fourDigits(_ value: Int64) -> String {
        let text = "\(value)"
        return value >= 0 && text.count < 4 ? String(repeating: "0", count: 4 - text.count) + text : text
    }
}

/// The current `Date` header, formatted at most once a second: each answer reads the clock
/// (`time()`, a vDSO call) and, within the same second, takes the cached string under an
/// uncontended lock. No timer task: an idle server (the app's built-in one) wakes for nothing.
final class HTTPDateCache: Sendable {
    private let cached = Mutex<(second: Int64, text: String)>((.min, ""))
    private let now: @Sendable () -> Int64

    /// - Parameter now: the Unix time in seconds (tests give their own clock).
    init(now: @escaping @Sendable () -> Int64 = { Int64(time(nil)) }) {
        self.now = now
    }

    /// `Date`'s value for an answer written now.
    var current: String {
        let second = now()
        return cached.withLock { cached in
            if cached.second != second { cached = (second, HTTPDate.imfFixdate(unixSeconds: second)) }
            return cached.text
        }
    }
}
