import Foundation
import OnTheMapModels

/// Rows for tests and screens: ordinary ones, a wide-character one and a hostile one, dated
/// relative to `TestClock.start`.
public enum SampleRows {
    /// One row; `name` is "First Last…" (split at the first space).
    public static func row(
        _ id: String, _ name: String, place: String = "Somewhere", link: String = "https://example.com",
        latitude: Double = 10, longitude: Double = 20, hoursAgo: Double = 1, key: String? = nil
    ) -> StudentInformation {
        let parts = name.split(separator: " ", maxSplits: 1).map(String.init)
        let date = TestClock.start.addingTimeInterval(-hoursAgo * 3600)
        return StudentInformation(
            objectId: id, uniqueKey: key ?? "k-\(id)", firstName: parts.first ?? "",
            lastName: parts.count > 1 ? parts[1] : "", mapString: place, mediaURL: link, latitude: latitude,
            longitude: longitude, createdAt: date, updatedAt: date)
    }

    /// Six rows, newest first; r1 belongs to `FakeAPI.accountKey`, r4 is hostile, r5 has a long link.
    public static let all: [StudentInformation] = [
        row(
            "r1", "Ada Lovelace", place: "London, UK", link: "https://ada.example", latitude: 51.5, longitude: -0.13,
            hoursAgo: 0.5, key: FakeAPI.accountKey),
        row(
            "r2", "José Núñez", place: "Madrid, Spain", link: "www.linkedin.com/in/jose", latitude: 40.4,
            longitude: -3.7, hoursAgo: 3),
        row(
            "r3", "美咲 田中", place: "東京", link: "https://github.com/misaki", latitude: 35.7, longitude: 139.7,
            hoursAgo: 26),
        row(
            "r4", "Evil\u{1B}[31mRed \u{1B}]0;pwned\u{07}Name", place: "\u{202E}lanigiro\u{9B}2J",
            link: "javascript:alert(1)", latitude: -33.9, longitude: 151.2, hoursAgo: 50),
        row(
            "r5", "Grace Hopper", place: "Arlington, VA",
            link: "https://grace.example/" + String(repeating: "x", count: 300),
            latitude: 38.9, longitude: -77.1, hoursAgo: 100),
        row("r6", "Alan Turing", place: "Manchester, UK", link: "", latitude: 53.5, longitude: -2.2, hoursAgo: 200),
    ]
}
