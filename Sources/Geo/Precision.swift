import Foundation

/// How precisely a posted location may place the student, as the student chose: `city` (the
/// default) or `exact`. The one place where a geocoder's answer is made coarse before it leaves
/// the client; the posting form and `onthemap post` both go through `coarsen(_:)`.
public enum Precision: String, CaseIterable, Codable, Sendable {
    /// About 1 km: an answer finer than a place is rounded to a 0.01° grid.
    case city
    /// The geocoder's answer as it came.
    case exact

    /// Latitude step of the city grid: 0.01° is 1.1 km north–south everywhere.
    public static let cityStep = 0.01

    /// How the post will place the student, for the posting preview and `onthemap post`.
    public var statement: String {
        switch self {
        case .city: "posted at city level (about 1 km)"
        case .exact: "posted exactly as found"
        }
    }

    /// `placemark` no more precise than `self`. Places (a city, region or country: every answer
    /// of the offline gazetteer, and an online geocoder's answers that it positively classes as a
    /// place) are centroids already and stay as they are; a street-level answer (`.address`, which
    /// is also what the online adapters make of an answer of unknown class) is rounded to the city grid and
    /// becomes a `.city` placemark with a box of about ±5 km around it, so the map preview
    /// does not zoom into the street either.
    public func coarsen(_ placemark: Placemark) -> Placemark {
        guard self == .city, placemark.precision == .address else { return placemark }
        let point = Self.cityGrid(latitude: placemark.latitude, longitude: placemark.longitude)
        return Placemark(
            latitude: point.latitude, longitude: point.longitude, displayName: placemark.displayName,
            precision: .city, region: .around(latitude: point.latitude, longitude: point.longitude, half: 0.05))
    }

    /// The nearest point of the city grid: latitude to 0.01°, longitude to the smallest of
    /// 0.01°, 0.02°, 0.05°, 0.1°, 0.2°, 0.5° or 1° that is at least about 0.8 km wide at that
    /// latitude (0.01° spans 1.1 km at the equator but 0.55 km at 60°). Grid points are whole
    /// hundredths, so the rounding shows in the numbers the server stores.
    public static func cityGrid(latitude: Double, longitude: Double) -> (latitude: Double, longitude: Double) {
        let roundedLatitude = min(90, max(-90, (latitude * 100).rounded() / 100))
        let width = cos(roundedLatitude * .pi / 180)
        let steps = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0]
        let step = steps.first { $0 * width >= 0.007 } ?? 1.0
        var roundedLongitude = ((longitude / step).rounded() * step * 100).rounded() / 100
        if roundedLongitude > 180 { roundedLongitude -= 360 }
        if roundedLongitude < -180 { roundedLongitude += 360 }
        return (roundedLatitude, roundedLongitude)
    }
}
