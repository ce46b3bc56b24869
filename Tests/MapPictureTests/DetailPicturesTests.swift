import MapPicture
import TerminalUI
import Testing
import WorldMap

/// Close-up pictures (`onthemap map --format png` draws them the same way) after a PNG round
/// trip: the detailed map's lakes and straits are sea-coloured and its small islands land-coloured
/// in every theme.
@Suite struct DetailPicturesTests {
    /// 320×240 pixels centred on a place, at about 90 m a pixel.
    static func picture(_ theme: Theme.Name, latitude: Double, longitude: Double) throws -> (RGBAImage, Viewport, PixelPalette) {
        var viewport = PixelMapRenderer.viewport(pixelWidth: 320, pixelHeight: 240)
        viewport.setZoom(viewport.worldDegreesPerColumn / (2 * 0.0008))
        viewport.center(latitude: latitude, longitude: longitude)
        let palette = MapPalette.pixels(theme)
        let image = PixelMapRenderer().render(viewport, palette: palette)
        return (try PNG.decode(try PNG.encode(image)), viewport, palette)
    }

    static let places: [(name: String, latitude: Double, longitude: Double, isLand: Bool)] = [
        ("Lake Geneva", 46.45, 6.55, false), ("Golden Gate", 37.8199, -122.4783, false),
        ("Angel Island", 37.8609, -122.4326, true), ("Bosphorus", 41.0458, 29.0345, false),
        ("Lake Tahoe", 39.09, -120.04, false),
    ]

    @Test(arguments: Theme.Name.allCases) func lakesStraitsAndIslandsInEveryTheme(theme: Theme.Name) throws {
        try #require(DetailMap.shared != nil, DetailMap.note.map { Comment(rawValue: $0) })
        for place in Self.places {
            let (image, viewport, palette) = try Self.picture(theme, latitude: place.latitude, longitude: place.longitude)
            let color = PixelMapTests.pixel(image, viewport, place.latitude, place.longitude)
            if place.isLand {
                #expect(color == palette.land || color == palette.coast, "\(place.name) in \(theme)")
            } else {
                #expect(color == palette.sea, "\(place.name) in \(theme)")
            }
        }
    }
}
