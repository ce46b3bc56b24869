import DemoClass
import Testing

@testable import WorldMap

/// Names, borders and the orientation helpers.
@Suite struct MapLabelTests {
    /// The demo class as pins, one selected with a name, a few own and matching.
    static let demoPins: [MapPin] = DemoPlaces.all.enumerated().map { index, place in
        let style: PinStyle = index == 7 ? .selected : index % 11 == 0 ? .own : index % 5 == 0 ? .match : .normal
        return MapPin(
            id: "\(index)", latitude: place.1, longitude: place.2, style: style,
            label: style == .selected ? "Grace Hopper" : nil)
    }

    /// Every pin on screen is drawn as a pin, and no name touches it left or right (its own
    /// name, one blank cell away, excepted).
    func expectNoNameCoversAPin(_ frame: MapFrame, _ context: String) {
        for index in frame.pins.indices {
            guard let cell = frame.cell(ofPinAt: index) else { continue }
            let style = frame.grid[cell.column, cell.row]?.style
            switch style {
            case .pin, .cluster: break
            default: Issue.record("pin \(index) covered by \(String(describing: style)) at \(context)")
            }
            for dx in [-1, 1] {
                if case .label(let kind) = frame.grid[cell.column + dx, cell.row]?.style, kind != .pin {
                    Issue.record("a name touches pin \(index) at \(context)")
                }
            }
        }
    }

    /// Every city line of the generated text is a city, and its coordinates, held as
    /// thousandths, read back as the very `Double`s its text parses to.
    @Test func citiesReadBackTheirTextExactly() throws {
        let lines = cityLabelsText.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }.split(separator: "\n")
        let cities = PlaceLabels.cities
        try #require(cities.count == lines.count && cities.count > 12_000)
        for (index, line) in lines.enumerated() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            let city = cities[index]
            #expect(city.name == String(fields[0]))
            #expect(city.latitude == Double(fields[1]) && cities.latitude(index) == Double(fields[1]), "\(line)")
            #expect(city.longitude == Double(fields[2]) && cities.longitude(index) == Double(fields[2]), "\(line)")
            #expect(cities.rank(index) == Int(fields[3]))
        }
    }

    @Test func noNameCoversAPinAtAnyZoom() throws {
        let pins = Self.demoPins
        try #require(pins.count > 50)
        for zoom in 1...256 {
            // Centred on a different demo place at each step, and on the selected pin.
            let place = pins[zoom % pins.count]
            for (mode, center) in [(MapRenderer.Mode.braille, place), (.ascii, pins[7])] {
                let view = Viewport(
                    width: 120, height: 40, centerLatitude: center.latitude, centerLongitude: center.longitude,
                    zoom: Double(zoom))
                expectNoNameCoversAPin(MapRenderer(mode: mode).render(view, pins: pins), "zoom \(zoom) \(mode)")
            }
        }
    }

    /// The text of a grid's name cells, runs joined with spaces.
    static func names(_ grid: MapGrid, kind: LabelKind? = nil) -> String {
        var text = ""
        for (index, cell) in grid.cells.enumerated() {
            if index % grid.width == 0 { text += " " }
            if case .label(let k) = cell.style, kind == nil || k == kind {
                text.append(cell.character)
            } else {
                text += " "
            }
        }
        return text
    }

    @Test func worldViewNamesTheLargestCountries() {
        let grid = MapRenderer().render(Viewport.world(width: 160, height: 48)).grid
        let names = Self.names(grid, kind: .country)
        let largest = [
            "Russia", "Canada", "United States", "China", "Brazil", "Australia", "India", "Argentina", "Kazakhstan",
            "Algeria",
        ]
        #expect(largest.filter { names.contains($0) }.count >= 5, "\(names)")
    }

    @Test func selectedPinIsNamedBesideIt() {
        let pin = MapPin(id: "p", latitude: 48.85, longitude: 2.35, style: .selected, label: "Ada Lovelace")
        let view = Viewport(width: 80, height: 24, centerLatitude: 48.85, centerLongitude: 2.35, zoom: 8)
        let frame = MapRenderer().render(view, pins: [pin])
        let cell = try! #require(frame.cell(ofPin: "p"))
        let line = frame.grid.lines[cell.row]
        #expect(line.contains("X Ada Lovelace") || line.contains("Ada Lovelace X"))
    }

    @Test func bordersAreLinesApartFromCoast() {
        var view = Viewport(width: 120, height: 40)
        view.fit(MapRegion(minLatitude: 41, maxLatitude: 51.5, minLongitude: -5.5, maxLongitude: 10))
        let styles = MapRenderer().render(view).grid.cells.map(\.style)
        #expect(styles.filter { $0 == .border }.count > 50)
        #expect(styles.filter { $0 == .coast }.count > 50)
        var states = Viewport(width: 120, height: 40)
        states.fit(MapRegion(minLatitude: 36, maxLatitude: 46, minLongitude: -110, maxLongitude: -90))
        #expect(MapRenderer().render(states).grid.cells.contains { $0.style == .adminBorder })
        #expect(!MapRenderer(showsBordersAndNames: false).render(view).grid.cells.contains { $0.style == .border })
    }

    @Test func landStipplesAreNeverPinGlyphs() {
        for mode in [MapRenderer.Mode.braille, .ascii] {
            let grid = MapRenderer(mode: mode).render(Viewport.world(width: 200, height: 60)).grid
            let land = grid.cells.filter {
                [.land, .coast, .border, .adminBorder].contains($0.style)
            }.map(\.character)
            #expect(!land.contains { "o*@X+23456789".contains($0) })
        }
    }

    @Test func scaleBarIsARoundDistance() {
        let scale = MapScale(Viewport(width: 120, height: 40, centerLatitude: 0, centerLongitude: 0, zoom: 4))
        #expect([1, 2, 5].contains { scale.kilometres / $0 == (scale.kilometres / $0).rounded() })
        #expect(scale.columns >= 2 && scale.columns <= 12)
        #expect(scale.bar(ascii: true).hasPrefix("|-"))
        #expect(scale.center(ascii: false) == "0.00°N 0.00°E")
    }

    @Test func enclosingRegionCrossesTheAntimeridianWhenNarrower() throws {
        let region = try #require(MapRegion.enclosing([(-17, 178), (-18, -179), (-16, 179.5)]))
        #expect(region.minLongitude == 178 && region.maxLongitude == -179)
        let plain = try #require(MapRegion.enclosing([(48, 2), (52, 13)]))
        #expect(plain.minLongitude == 2 && plain.maxLongitude == 13 && plain.minLatitude == 48)
        #expect(MapRegion.enclosing([]) == nil)
    }
}

/// The Foundation-free arithmetic of the scale bar.
@Suite struct MapMathTests {
    @Test func cosineAndFixedPoint() {
        #expect(abs(MapMath.cosine(degrees: 60) - 0.5) < 1e-6)
        #expect(abs(MapMath.cosine(degrees: 0) - 1) < 1e-9)
        #expect(MapMath.cosine(degrees: 90) < 1e-6)
        #expect(MapMath.fixed(48.8566, digits: 2) == "48.86")
        #expect(MapMath.fixed(0.5, digits: 2) == "0.50")
        #expect(MapMath.fixed(-3.705, digits: 1) == "-3.7")
        #expect(MapMath.fixed(1243.4, digits: 0) == "1243")
        #expect(MapScale.distance(1.609, "mi") == "1.6 mi" && MapScale.distance(2, "km") == "2 km")
    }
}
