import AppTestSupport
import Testing

@testable import WorldMap

/// Pins of a few cities, one of each style, and two in one cell at world zoom.
let samplePins: [MapPin] = [
    MapPin(id: "mountain-view", latitude: 37.386, longitude: -122.084, style: .own),
    MapPin(id: "san-francisco", latitude: 37.775, longitude: -122.419),
    MapPin(id: "oakland", latitude: 37.804, longitude: -122.271, style: .match),
    MapPin(id: "london", latitude: 51.509, longitude: -0.126, style: .selected),
    MapPin(id: "paris", latitude: 48.853, longitude: 2.349),
    MapPin(id: "sao-paulo", latitude: -23.548, longitude: -46.636),
    MapPin(id: "tokyo", latitude: 35.690, longitude: 139.692),
    MapPin(id: "sydney", latitude: -33.868, longitude: 151.207),
]

/// The map's characters and its style layer, each framed by a border.
func render(_ viewport: Viewport, _ mode: MapRenderer.Mode) -> (text: String, styles: String) {
    let frame = MapRenderer(mode: mode).render(viewport, pins: samplePins)
    let border = "+" + String(repeating: "-", count: viewport.width) + "+"
    func framed(_ lines: [String]) -> String {
        ([border] + lines.map { "|" + $0 + "|" } + [border]).joined(separator: "\n")
    }
    return (framed(frame.grid.lines), framed(frame.grid.styleLines))
}

@Suite struct MapSnapshotTests {
    static let views: [(String, Viewport)] = [
        ("world", Viewport.world(width: 100, height: 30)),
        ("europe", Viewport(width: 80, height: 30, centerLatitude: 50, centerLongitude: 10, zoom: 5)),
        (
            "sf-bay",
            {
                var view = Viewport(width: 80, height: 30)
                view.fit(MapRegion(minLatitude: 37.2, maxLatitude: 38.0, minLongitude: -122.6, maxLongitude: -121.8))
                return view
            }()
        ),
    ]

    @Test(arguments: 0..<3)
    func braille(_ index: Int) {
        let (name, view) = Self.views[index]
        let (text, styles) = render(view, .braille)
        assertSnapshot(text, styles: styles, named: "\(name)-braille")
    }

    @Test(arguments: 0..<3)
    func ascii(_ index: Int) {
        let (name, view) = Self.views[index]
        let (text, styles) = render(view, .ascii)
        assertSnapshot(text, styles: styles, named: "\(name)-ascii")
    }
}
