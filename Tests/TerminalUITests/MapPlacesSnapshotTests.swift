import AppTestSupport
import Testing
import WorldMap

@testable import TerminalUI

/// The map at world, continent, country and city zoom around places on six continents, in
/// Braille and ASCII, with the colours of the app's palette and as a NO_COLOR terminal sees it
/// (attributes only). Each snapshot holds the four zooms of one place, one under the other.
@Suite struct MapPlacesSnapshotTests {
    static let places: [(name: String, latitude: Double, longitude: Double)] = [
        ("paris", 48.853, 2.349), ("san-francisco", 37.775, -122.419), ("sao-paulo", -23.548, -46.636),
        ("nairobi", -1.283, 36.817), ("tokyo", 35.690, 139.692), ("sydney", -33.868, 151.207),
    ]
    static let zooms: [(name: String, zoom: Double)] = [("world", 1), ("continent", 4), ("country", 16), ("city", 128)]

    /// A pin of each style near the place; the selected one carries a student's name.
    static func pins(near place: (name: String, latitude: Double, longitude: Double)) -> [MapPin] {
        [
            MapPin(
                id: "a", latitude: place.latitude, longitude: place.longitude, style: .selected, label: "Ada Lovelace"),
            MapPin(id: "b", latitude: place.latitude + 0.3, longitude: place.longitude + 0.5, style: .own),
            MapPin(id: "c", latitude: place.latitude - 0.4, longitude: place.longitude - 0.6, style: .match),
            MapPin(id: "d", latitude: place.latitude + 2, longitude: place.longitude - 3),
            MapPin(id: "e", latitude: place.latitude + 2.01, longitude: place.longitude - 3.01),
        ]
    }

    /// The four zooms' characters and style codes; `color: false` drops colours as NO_COLOR does.
    static func render(_ index: Int, mode: MapRenderer.Mode, color: Bool) -> (text: String, styles: String) {
        let place = places[index]
        var text: [String] = []
        var styles: [String] = []
        for (name, zoom) in zooms {
            let view = Viewport(
                width: 80, height: 24, centerLatitude: place.latitude, centerLongitude: place.longitude, zoom: zoom)
            let grid = MapRenderer(mode: mode).render(view, pins: pins(near: place)).grid
            let scale = MapScale(view)
            let title =
                "\(name) · zoom \(Int(zoom)) · \(scale.bar(ascii: mode == .ascii)) · \(scale.center(ascii: mode == .ascii))"
            text.append(title)
            text += grid.lines
            styles.append(String(repeating: " ", count: 80))
            for row in 0..<grid.height {
                styles.append(
                    String(
                        (0..<grid.width).map { column -> Character in
                            var style = MapPalette.style(for: grid[column, row]?.style ?? .water)
                            if !color { (style.foreground, style.background) = (nil, nil) }
                            return style.code
                        }))
            }
        }
        return (text.joined(separator: "\n"), styles.joined(separator: "\n"))
    }

    @Test(arguments: 0..<6)
    func braille(_ index: Int) {
        for color in [true, false] {
            let (text, styles) = Self.render(index, mode: .braille, color: color)
            assertSnapshot(
                text, styles: styles, named: "places-\(Self.places[index].name)-braille-\(color ? "color" : "mono")")
        }
    }

    @Test(arguments: 0..<6)
    func ascii(_ index: Int) {
        for color in [true, false] {
            let (text, styles) = Self.render(index, mode: .ascii, color: color)
            #expect(text.unicodeScalars.allSatisfy { $0.isASCII || $0 == "·" })
            assertSnapshot(
                text, styles: styles, named: "places-\(Self.places[index].name)-ascii-\(color ? "color" : "mono")")
        }
    }

    /// Without colour, each kind of pin still looks different from the others and from land.
    @Test func pinStylesDifferInMono() {
        let kinds: [CellStyle] = [.pin(.normal), .pin(.match), .pin(.own), .pin(.selected), .land, .coast, .border]
        let mono = kinds.map { kind -> Style in
            var style = MapPalette.style(for: kind)
            (style.foreground, style.background) = (nil, nil)
            return style
        }
        #expect(Set(mono[0..<4]).count == 4)
        #expect(mono[0..<4].allSatisfy { !mono[4...].contains($0) })
    }
}
