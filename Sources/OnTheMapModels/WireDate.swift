import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The timestamps of the wire: ISO-8601 UTC, `2015-03-09T22:04:50.315Z`.
///
/// Written by hand rather than with `ISO8601DateFormatter`, which is neither `Sendable` nor
/// fast, and is called for every row the server sends.
public enum WireDate {
    /// `2015-03-09T22:04:50.315Z` — three fraction digits, as Parse wrote them.
    public static func string(from date: Date) -> String {
        format(date, fractionDigits: 3)
    }

    /// `2015-05-10T16:48:30.760460Z` — six fraction digits, as the session API wrote expirations.
    public static func microsecondString(from date: Date) -> String {
        format(date, fractionDigits: 6)
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (or `+00:00`); `nil` for anything else.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                let byte = bytes[index]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 116, bytes[13] == 58, bytes[16] == 58,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        let rest = bytes[index...]
        guard rest.elementsEqual("Z".utf8) || rest.elementsEqual("z".utf8) || rest.elementsEqual("+00:00".utf8) else {
            return nil
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    private static func format(_ date: Date, fractionDigits: Int) -> String {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite else { return "1970-01-01T00:00:00.000Z" }
        var scale = 1
        for _ in 0..<fractionDigits { scale *= 10 }
        let ticks = Int64((interval * Double(scale)).rounded(.down))
        let wholeSeconds = ticks >= 0 ? ticks / Int64(scale) : (ticks - Int64(scale) + 1) / Int64(scale)
        let fraction = Int(ticks - wholeSeconds * Int64(scale))
        let (year, month, day) = civilFromDays(Int(wholeSeconds >= 0 ? wholeSeconds / 86_400 : (wholeSeconds - 86_399) / 86_400))
        let secondOfDay = Int(wholeSeconds - Int64(daysFromCivil(year: year, month: month, day: day)) * 86_400)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(fraction, fractionDigits))Z"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
