import Foundation
import Geo
import SafeText

/// How `onthemap geocode` prints a result.
enum GeocodeOutput {
    /// The JSON shape of one placemark.
    struct Place: Encodable {
        let latitude: Double
        let longitude: Double
        let displayName: String
        let precision: String
        let region: GeoRegion
    }

    /// The JSON document: the best placemark's fields, its alternatives, and any notice.
    struct Document: Encodable {
        let latitude: Double
        let longitude: Double
        let displayName: String
        let precision: String
        let region: GeoRegion
        let alternatives: [Place]
        let notice: String?
    }

    static func json(_ result: GeocodeResult) throws -> String {
        let best = result.best
        let document = Document(
            latitude: best.latitude, longitude: best.longitude, displayName: best.displayName,
            precision: best.precision.rawValue, region: best.region,
            alternatives: result.alternatives.map {
                Place(
                    latitude: $0.latitude, longitude: $0.longitude, displayName: $0.displayName,
                    precision: $0.precision.rawValue, region: $0.region)
            },
            notice: result.notice)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // An online geocoder's names may carry C1 and bidi controls: escaped, never raw.
        return SafeText.escapingControls(inJSON: String(decoding: try encoder.encode(document), as: UTF8.self)) + "\n"
    }

    /// "37.38605,-122.08385<TAB>Mountain View, California, United States<TAB>city", then one
    /// line per alternative prefixed with "also: ".
    static func text(_ result: GeocodeResult) -> String {
        func line(_ place: Placemark) -> String {
            let coordinate = String(format: "%.5f,%.5f", place.latitude, place.longitude)
            return "\(coordinate)\t\(SafeText.clean(place.displayName))\t\(place.precision.rawValue)"
        }
        var lines = [line(result.best)]
        lines += result.alternatives.map { "also: " + line($0) }
        return lines.joined(separator: "\n") + "\n"
    }
}
