import Testing

@testable import WorldMap

/// Close views of known places drawn from the detailed map (GSHHG, `MapData/detail.otmd`): the
/// place at the centre of the picture (`PixelMapRenderer`) and of the Braille map is land or
/// water as it is on the ground — straits, lakes, small islands, and cities on either side of
/// water, on every continent — and rivers run where they do.
@Suite struct DetailPlacesTests {
    struct Place: CustomTestStringConvertible, Sendable {
        let name: String
        let latitude: Double
        let longitude: Double
        let isLand: Bool
        /// Whether the place is large enough to be seen at 0.004° (440 m) a dot too.
        var isLargeEnoughForCoarseDots = true
        var testDescription: String { name }
    }

    static func land(_ name: String, _ latitude: Double, _ longitude: Double) -> Place {
        Place(name: name, latitude: latitude, longitude: longitude, isLand: true)
    }

    static func water(_ name: String, _ latitude: Double, _ longitude: Double) -> Place {
        Place(name: name, latitude: latitude, longitude: longitude, isLand: false)
    }

    /// Each at least a few hundred metres from the shore, so that a 100 m dot and a cell of 2×4
    /// of them read it the same way.
    static let places: [Place] = [
        // North America
        water("Golden Gate", 37.8199, -122.4783), land("Angel Island", 37.8609, -122.4326),
        Place(name: "Alcatraz", latitude: 37.8267, longitude: -122.4230, isLand: true, isLargeEnoughForCoarseDots: false),
        water("Lake Tahoe", 39.09, -120.04),
        land("Manhattan", 40.7831, -73.9712), water("Lake Michigan off Chicago", 41.88, -87.55),
        land("Chicago", 41.88, -87.65),
        // Europe
        water("Lake Geneva", 46.45, 6.55), water("Lake Constance", 47.60, 9.40),
        water("Tagus estuary at Lisbon", 38.695, -9.16), land("Lisbon", 38.7223, -9.1393),
        land("Almada", 38.679, -9.157), water("Bosphorus", 41.0458, 29.0345), land("Kadıköy", 40.99, 29.03),
        land("Fatih", 41.015, 28.955), water("Øresund", 55.70, 12.75), land("Copenhagen", 55.676, 12.568),
        land("Malmö", 55.605, 13.0), water("Strait of Messina", 38.20, 15.62), water("Venice lagoon", 45.43, 12.30),
        water("Saltsjön, Stockholm", 59.323, 18.085), water("Bay of Kotor", 42.47, 18.74),
        water("Strait of Gibraltar", 35.95, -5.60),
        // Asia
        water("Victoria Harbour", 22.29, 114.17), land("Hong Kong Island", 22.265, 114.19),
        water("Singapore Strait", 1.20, 103.85), land("Singapore", 1.35, 103.82), water("Tokyo Bay", 35.50, 139.80),
        water("Lake Baikal", 53.5, 108.0), water("Caspian Sea", 42.0, 50.5),
        // Africa
        water("Lake Victoria", -1.0, 33.0), land("Robben Island", -33.806, 18.366), land("Cape Town", -33.925, 18.42),
        // South America
        water("Lake Titicaca", -15.8, -69.4), water("Guanabara Bay", -22.85, -43.17),
        water("Río de la Plata", -34.8, -57.5), land("Buenos Aires", -34.6, -58.45),
        // Oceania
        water("Sydney Harbour", -33.854, 151.245), water("Cook Strait", -41.2, 174.5), land("Wellington", -41.29, 174.78),
    ]

    static let map: DetailMap? = DetailMap.shared

    /// A view of 60×30 cells centred on a place with dots of `dotDegrees` (0.0008°: about 90 m,
    /// the finest level).
    static func view(_ place: Place, dotDegrees: Double = 0.0008) -> Viewport {
        var view = Viewport(width: 60, height: 30, centerLatitude: place.latitude, centerLongitude: place.longitude)
        view.setZoom(view.worldDegreesPerColumn / (2 * dotDegrees))
        view.center(latitude: place.latitude, longitude: place.longitude)
        return view
    }

    static let palette = PixelPalette(
        sea: RGB(0, 0, 255), land: RGB(0, 255, 0), coast: RGB(0, 128, 0), border: RGB(255, 0, 0),
        admin1: RGB(128, 0, 0), outline: RGB(255, 255, 0), pins: [RGB(255, 255, 255)], pinEdge: RGB(0, 0, 0))

    @Test func theDetailedMapIsFound() throws {
        let map = try #require(Self.map, "MapData/detail.otmd: \(DetailMap.note ?? "")")
        #expect(map.levelCount == 3)
    }

    @Test(arguments: places) func thePictureIsLandOrWaterAtTheCentre(place: Place) throws {
        try #require(Self.map != nil)
        for dot in place.isLargeEnoughForCoarseDots ? [0.0008, 0.004] : [0.0008] {
            let view = Self.view(place, dotDegrees: dot)
            let renderer = MapRenderer(showsBordersAndNames: false)
            #expect(renderer.detailLevel(for: view) != nil)
            let image = PixelMapRenderer(renderer: renderer).render(view, palette: Self.palette)
            let p = try #require(view.position(latitude: place.latitude, longitude: place.longitude))
            let color = image.color(x: Int(p.column * 2), y: Int(p.row * 4))
            if place.isLand {
                #expect(color == Self.palette.land || color == Self.palette.coast, "\(place.name) at \(dot)° a dot")
            } else {
                #expect(color == Self.palette.sea, "\(place.name) at \(dot)° a dot")
            }
        }
    }

    @Test(arguments: places) func theBrailleCellIsLandOrWaterAtTheCentre(place: Place) throws {
        try #require(Self.map != nil)
        let view = Self.view(place)
        let frame = MapRenderer(showsBordersAndNames: false).render(view)
        let cell = try #require(view.cell(latitude: place.latitude, longitude: place.longitude))
        let style = try #require(frame.grid[cell.column, cell.row]).style
        if place.isLand {
            #expect(style == .land || style == .coast, "\(place.name): \(style)")
        } else {
            #expect(style == .water, "\(place.name): \(style)")
        }
    }

    /// Whether some dot of a layer (`\.rivers`, `\.borders`) lies within `radius` dots of a point;
    /// a river's dots are checked to be water too.
    static func dotNear(
        _ layer: KeyPath<MapRenderer.Layers, [UInt8]>, _ latitude: Double, _ longitude: Double, dotDegrees: Double,
        radius: Int = 3
    ) throws -> Bool {
        let view = Self.view(Self.water("here", latitude, longitude), dotDegrees: dotDegrees)
        let layers = MapRenderer().layers(view)
        let p = try #require(view.position(latitude: latitude, longitude: longitude))
        let (x, y) = (Int(p.column * 2), Int(p.row * 4))
        for dy in -radius...radius {
            for dx in -radius...radius {
                let (px, py) = (x + dx, y + dy)
                guard px >= 0, py >= 0, px < view.width * 2, py < view.height * 4 else { continue }
                let index = (py >> 2) * view.width + (px >> 1)
                let bit = LandRasterizer.dotBit(px & 1, py & 3)
                if layers[keyPath: layer][index] & bit != 0 {
                    if layer == \.rivers { #expect(layers.land[index] & bit == 0, "a river is water") }
                    return true
                }
            }
        }
        return false
    }

    static func riverNear(_ latitude: Double, _ longitude: Double, dotDegrees: Double, radius: Int = 3) throws -> Bool {
        try dotNear(\.rivers, latitude, longitude, dotDegrees: dotDegrees, radius: radius)
    }

    @Test func theRhineRunsThroughBasel() throws {
        try #require(Self.map != nil)
        #expect(try Self.riverNear(47.5605, 7.5910, dotDegrees: 0.0008), "Mittlere Brücke")
        #expect(try Self.riverNear(47.5605, 7.5910, dotDegrees: 0.004))
    }

    @Test func theDanubeRunsThroughBudapest() throws {
        try #require(Self.map != nil)
        #expect(try Self.riverNear(47.5070, 19.0440, dotDegrees: 0.0008), "by the Parliament")
        #expect(try Self.riverNear(47.5070, 19.0440, dotDegrees: 0.02, radius: 2), "a rank-1 river at 2 km a dot")
    }

    @Test func noRiverInTheOpenCountryside() throws {
        try #require(Self.map != nil)
        // The Beauce, south-west of Paris: wheat fields, no river within a few hundred metres.
        #expect(try !Self.riverNear(48.30, 1.75, dotDegrees: 0.0008, radius: 2))
    }

    @Test func theDetailedBordersFollowTheRhineAndCrossLakeGeneva() throws {
        try #require(Self.map != nil)
        // Switzerland and Germany meet mid-river at Rheinfelden; Switzerland and France mid-lake.
        #expect(try Self.dotNear(\.borders, 47.5565, 7.7900, dotDegrees: 0.0016, radius: 5), "Rheinfelden")
        #expect(try Self.dotNear(\.borders, 46.45, 6.55, dotDegrees: 0.004, radius: 5), "Lake Geneva, the border a kilometre off")
        #expect(try !Self.dotNear(\.borders, 48.30, 1.75, dotDegrees: 0.004, radius: 3), "the Beauce, far from any border")
    }

    /// Close in, state lines are WDBII's: California and Nevada meet on the 120th meridian north of
    /// Lake Tahoe, and at the lake's east shore the line turns south-east.
    @Test func theDetailedStateLinesFollowTheirBorders() throws {
        try #require(Self.map != nil)
        #expect(try Self.dotNear(\.admin1, 39.60, -120.0, dotDegrees: 0.0016, radius: 5), "the 120th meridian")
        #expect(try Self.dotNear(\.admin1, 38.80, -119.70, dotDegrees: 0.0016, radius: 5), "south-east of the lake")
        #expect(try !Self.dotNear(\.admin1, 39.60, -119.90, dotDegrees: 0.0016, radius: 5), "Nevada, 8 km east of it")
    }
}
