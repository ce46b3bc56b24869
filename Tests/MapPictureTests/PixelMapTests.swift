import MapPicture
import TerminalUI
import Testing
import WorldMap

/// The picture of the map, looked at pixel by pixel after a PNG round trip through libpng: sea
/// where the sea is, land where the land is, a border between France and Spain, the markers of
/// classmates where they study, your own and the selected pin in their own colours — in each theme.
@Suite struct PixelMapTests {
    static let size = (width: 1600, height: 800)

    /// The world at 1600×800 with pins in Lisbon (selected), Nairobi (own) and Tokyo; the image
    /// after encoding and decoding it.
    static func picture(_ theme: Theme.Name, pins: [MapPin] = Self.pins) throws -> (RGBAImage, Viewport, PixelPalette) {
        let viewport = PixelMapRenderer.viewport(pixelWidth: size.width, pixelHeight: size.height)
        let palette = MapPalette.pixels(theme)
        let image = PixelMapRenderer().render(viewport, pins: pins, palette: palette)
        let decoded = try PNG.decode(try PNG.encode(image))
        #expect(decoded == image.rgba, "the PNG holds exactly the pixels drawn")
        #expect(image.colorCount <= 16, "a map's few colours: a 4-bit PNG")
        return (decoded, viewport, palette)
    }

    static let pins = [
        MapPin(id: "lisbon", latitude: 38.72, longitude: -9.14, style: .selected),
        MapPin(id: "nairobi", latitude: -1.29, longitude: 36.82, style: .own),
        MapPin(id: "tokyo", latitude: 35.68, longitude: 139.69),
    ]

    /// The pixel at a coordinate.
    static func pixel(_ image: some PixelCanvas, _ viewport: Viewport, _ latitude: Double, _ longitude: Double) -> RGB? {
        guard let p = viewport.position(latitude: latitude, longitude: longitude) else { return nil }
        return image.color(x: Int(p.column * 2), y: Int(p.row * 4))
    }

    @Test(arguments: Theme.Name.allCases) func seaLandBorderAndPinsAreWhereTheyBelong(theme: Theme.Name) throws {
        let (image, viewport, palette) = try Self.picture(theme)
        #expect(image.width == Self.size.width && image.height == Self.size.height)
        #expect(Self.pixel(image, viewport, 30, -40) == palette.sea, "mid-Atlantic")
        #expect(Self.pixel(image, viewport, -30, 80) == palette.sea, "Indian Ocean")
        #expect(Self.pixel(image, viewport, 23, 12) == palette.land, "Sahara")
        #expect(Self.pixel(image, viewport, 60, 100) == palette.land, "Siberia")
        #expect(Self.pixel(image, viewport, 35.68, 139.69) == palette.pins[PinStyle.normal.rawValue], "Tokyo's marker")
        #expect(Self.pixel(image, viewport, 38.72, -9.14) == palette.pins[PinStyle.selected.rawValue], "the selected pin")
        #expect(Self.pixel(image, viewport, -1.29, 36.82) == palette.pins[PinStyle.own.rawValue], "your own pin")
        let styles = Set(palette.pins)
        #expect(styles.count == PinStyle.allCases.count, "every pin style has its own colour")
        #expect(!styles.contains(palette.land) && !styles.contains(palette.sea))
        // The France–Spain border runs along the Pyrenees: some pixel on a short north-south line
        // across it, at 0.5°E, is the border's colour.
        let crossing = stride(from: 41.8, through: 43.6, by: 0.02).compactMap { Self.pixel(image, viewport, $0, 0.5) }
        #expect(crossing.contains(palette.border), "a border pixel between France and Spain")
    }

    @Test func clustersAreOneLargerMarker() throws {
        let many = (0..<9).map { MapPin(id: "p\($0)", latitude: 48.85 + Double($0) * 0.01, longitude: 2.35) }
        let (image, viewport, palette) = try Self.picture(.dark, pins: many)
        let normal = palette.pins[PinStyle.normal.rawValue]
        guard let centre = viewport.position(latitude: 48.89, longitude: 2.35) else { return }
        let (x, y) = (Int(centre.column * 2), Int(centre.row * 4))
        let wide = (x - 20...x + 20).filter { image.color(x: $0, y: y) == normal }.count
        let lone = PixelMapRenderer.pinRadius(width: image.width, height: image.height)
        #expect(Double(wide) > lone * 2.5, "nine pins in one place are one marker wider than a lone one (\(wide) px)")
    }

    @Test func aPictureOfACityShowsStateLinesAndFinerCoasts() throws {
        var viewport = PixelMapRenderer.viewport(pixelWidth: 1200, pixelHeight: 800)
        viewport.setZoom(40)
        viewport.center(latitude: 37.6, longitude: -122.2)
        let palette = MapPalette.pixels(.light)
        let image = PixelMapRenderer().render(viewport, pins: [], palette: palette)
        #expect(Self.pixel(image, viewport, 37.75, -122.6) == palette.sea, "the Pacific off San Francisco")
        #expect(Self.pixel(image, viewport, 37.5, -121.95) == palette.land, "Fremont")
    }
}
