import Foundation
import OnTheMapModels
import SafeText
import ViewModels
import WorldMap

/// The map told in words, for accessible mode: what a view shows (its place, centre and span,
/// then the classmates in it grouped by country, or by nearby city when zoomed in) and one
/// sentence for each map action. Pure: the same view and rows give the same lines. No Braille
/// dots or box drawing, which a screen reader reads as noise.
public enum MapWords {
    /// From this zoom on, classmates are grouped by the nearest city instead of by country.
    static let cityGroupingZoom = 8.0

    /// The classmates inside `viewport`, in reading order: nearest to `home` first, or newest
    /// first without a home (then by name).
    public static func inView(_ rows: [StudentInformation], viewport: Viewport, home: GeoPoint?) -> [StudentInformation]
    {
        ordered(rows.filter { viewport.cell(latitude: $0.latitude, longitude: $0.longitude) != nil }, home: home)
    }

    static func ordered(_ rows: [StudentInformation], home: GeoPoint?) -> [StudentInformation] {
        rows.sorted { left, right in
            if let home {
                let (a, b) = (
                    RowFacts.distance(of: left, from: home) ?? 0, RowFacts.distance(of: right, from: home) ?? 0
                )
                if a != b { return a < b }
            } else {
                let (a, b) = (date(of: left), date(of: right))
                if a != b { return a > b }
            }
            return left.fullName < right.fullName
        }
    }

    static func date(of row: StudentInformation) -> Date { row.updatedAt ?? row.createdAt ?? .distantPast }

    /// One line of the listing per group and per classmate, with the id of the classmate's
    /// line (nil for headings), so a screen can put the cursor on the selected one.
    public static func lines(
        viewport: Viewport, rows: [StudentInformation], selectedID: String?, viewer: Viewer, home: GeoPoint?,
        now: Date
    ) -> [(text: String, id: String?)] {
        let shown = inView(rows, viewport: viewport, home: home)
        var lines: [(String, String?)] = [
            ("Map of \(place(of: viewport)), \(centreAndSpan(of: viewport)).", nil),
            (
                "\(shown.count) of \(count(rows.count)) in view, \(home == nil ? "newest" : "nearest") first"
                    + (rows.count > shown.count ? "; \(rows.count - shown.count) outside the view." : "."), nil
            ),
        ]
        var groups: [(name: String, rows: [StudentInformation])] = []
        for row in shown {
            let name = group(of: row, zoom: viewport.zoom)
            if let index = groups.firstIndex(where: { $0.name == name }) {
                groups[index].rows.append(row)
            } else {
                groups.append((name, [row]))
            }
        }
        for group in groups {
            lines.append(("\(group.name): \(count(group.rows.count)).", nil))
            for row in group.rows {
                let mark = row.objectId == selectedID ? "> " : "  "
                lines.append(
                    (
                        mark + describe(row, viewer: viewer, home: home, now: now, withCountry: false),
                        row.objectId
                    ))
            }
        }
        return lines
    }

    /// `Ada Lovelace, Paris, 12 km from you, 2 days ago, your pin`: the facts colour and
    /// position show on the map, said in words.
    public static func describe(
        _ row: StudentInformation, viewer: Viewer, home: GeoPoint?, now: Date, withCountry: Bool = true
    ) -> String {
        var parts = [SafeText.clean(row.fullName).trimmingCharacters(in: .whitespaces)]
        let place = SafeText.clean(row.mapString).trimmingCharacters(in: .whitespaces)
        if !place.isEmpty { parts.append(place) }
        if withCountry, let country = RowFacts.country(of: row), !place.contains(country) { parts.append(country) }
        if let kilometres = RowFacts.distance(of: row, from: home) {
            parts.append(kilometres < 1 ? "where you are" : "\(kilometresText(kilometres)) from you")
        }
        if let date = row.updatedAt ?? row.createdAt { parts.append(AgeText.text(from: date, now: now)) }
        if viewer.owns(row) { parts.append("your pin") }
        return parts.map(spoken).joined(separator: ", ")
    }

    /// The country of a row at world and continent zoom, the nearest city (with its country)
    /// closer in; `At sea` for a pin in no country's outline.
    static func group(of row: StudentInformation, zoom: Double) -> String {
        let country = RowFacts.country(of: row)
        if zoom >= cityGroupingZoom, let city = nearestCity(latitude: row.latitude, longitude: row.longitude) {
            return spoken("Near \(city)" + (country.map { ", \($0)" } ?? ""))
        }
        return spoken(country ?? "At sea")
    }

    /// The largest bundled city within 30 km (the list is most populous first), else the
    /// nearest within `degrees`: "near Madrid" rather than the district the pin is in.
    static func nearestCity(latitude: Double, longitude: Double, within degrees: Double = 1) -> String? {
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        var best: (name: String, distance: Double)?
        let cities = PlaceLabels.cities
        for index in cities.indices
        where abs(cities.latitude(index) - latitude) <= degrees && abs(cities.longitude(index) - longitude) <= degrees {
            let distance = point.kilometres(
                to: GeoPoint(latitude: cities.latitude(index), longitude: cities.longitude(index)))
            if distance <= 30 { return cities.name(index) }
            if best.map({ distance < $0.distance }) ?? true { best = (cities.name(index), distance) }
        }
        return best?.name
    }

    /// What a view is of: `the whole world`, a region (`Western Europe`) at continent zoom, a
    /// country closer in, `Paris, France` at city zoom.
    public static func place(of viewport: Viewport) -> String {
        if viewport.isWorldZoom { return "the whole world" }
        let (latitude, longitude) = (viewport.centerLatitude, viewport.centerLongitude)
        let country = PlaceLabels.country(atLatitude: latitude, longitude: longitude).map {
            spoken(PlaceLabels.countries[$0].name)
        }
        if viewport.zoom >= 32, let city = nearestCity(latitude: latitude, longitude: longitude, within: 0.5) {
            return spoken(city) + (country.map { ", \($0)" } ?? "")
        }
        if viewport.zoom >= 6, let country { return country }
        return region(latitude: latitude, longitude: longitude) ?? country ?? "the open sea"
    }

    /// `centred on 48.85 north, 2.35 east, about 1,200 km across`: words and comma-grouped
    /// numbers, which a speech synthesizer reads as numbers (espeak-ng reads "1 200" as "one,
    /// two hundred" and "2.35E" as letters).
    public static func centreAndSpan(of viewport: Viewport) -> String {
        let (latitude, longitude) = (viewport.centerLatitude, viewport.centerLongitude)
        let across =
            Double(viewport.width) * viewport.degreesPerColumn * 111.32 * max(0.01, cos(latitude * .pi / 180))
        return "centred on " + String(format: "%.2f", abs(latitude)) + (latitude < 0 ? " south, " : " north, ")
            + String(format: "%.2f", abs(longitude)) + (longitude < 0 ? " west" : " east")
            + ", about \(kilometresText(min(across, 40_075))) across"
    }

    /// `850 km`, `1,264 km`, `12,300 km`.
    public static func kilometresText(_ kilometres: Double) -> String {
        var digits = String(Int(kilometres.rounded()))
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped + " km"
    }

    /// Large regions by a box around their middle, most specific first: names for the
    /// continent zoom, where a country would say too little.
    static let regions: [(name: String, south: Double, north: Double, west: Double, east: Double)] = [
        ("Northern Europe", 55, 72, -25, 45), ("Western Europe", 42, 55, -11, 16), ("Southern Europe", 35, 42, -10, 30),
        ("Eastern Europe", 42, 55, 16, 45), ("the Middle East", 12, 42, 30, 63), ("North Africa", 15, 37, -18, 30),
        ("West Africa", 4, 15, -18, 15), ("Central Africa", -12, 15, 15, 30), ("East Africa", -12, 15, 30, 52),
        ("Southern Africa", -35, -12, 10, 52), ("South Asia", 5, 37, 60, 92), ("Central Asia", 37, 55, 46, 92),
        ("Russia and Siberia", 55, 78, 45, 180), ("East Asia", 20, 55, 92, 146), ("Southeast Asia", -11, 20, 92, 141),
        ("Oceania", -50, -11, 110, 180), ("Greenland", 59, 84, -75, -10), ("Canada and Alaska", 49, 84, -170, -52),
        ("the United States", 25, 49, -125, -66), ("Mexico and Central America", 7, 25, -118, -77),
        ("the Caribbean", 10, 27, -77, -59), ("South America", -56, 13, -82, -34),
    ]

    static func region(latitude: Double, longitude: Double) -> String? {
        var longitude = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if longitude < 0 { longitude += 360 }
        longitude -= 180
        return regions.first {
            latitude >= $0.south && latitude <= $0.north && longitude >= $0.west && longitude <= $0.east
        }?.name
    }

    /// `1 classmate`, `12 classmates`, `no classmates`.
    public static func count(_ number: Int) -> String {
        number == 0 ? "no classmates" : number == 1 ? "1 classmate" : "\(number) classmates"
    }

    /// The text without Braille, box drawing or block characters (a hostile name may carry
    /// them): a screen reader reads those as noise, and the mode promises none.
    static func spoken(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { AccessibleText.isNoise($0) ? " " : $0 }))
    }
}
