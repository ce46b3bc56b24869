import Testing

@testable import WorldMap

@Suite struct MapRendererTests {
    @Test func pinLandsInTheProjectedCell() throws {
        let view = Viewport.world(width: 120, height: 40)
        // 3° a column, 4° a row (stretch 1.5), centred on 12°N 0°E.
        #expect(view.degreesPerColumn == 3)
        #expect(abs(view.degreesPerRow - 4) < 1e-9)
        let cell = try #require(view.cell(latitude: 37.386, longitude: -122.084))
        #expect(cell.column == 60 + Int(((-122.084) / 3).rounded(.down)))  // 19
        #expect(cell.row == 20 + Int(((12 - 37.386) / 4).rounded(.down)))  // 13
        let frame = MapRenderer().render(view, pins: [MapPin(id: "mv", latitude: 37.386, longitude: -122.084)])
        #expect(frame.grid[cell.column, cell.row] == MapCell(character: "o", style: .pin(.normal)))
        #expect(frame.pins(atColumn: cell.column, row: cell.row).map(\.id) == ["mv"])
        #expect(frame.cell(ofPin: "mv")?.column == cell.column)
    }

    @Test func pinsInOneCellCluster() {
        let view = Viewport.world(width: 80, height: 24)
        let pins = [
            MapPin(id: "a", latitude: 37.38, longitude: -122.08),
            MapPin(id: "b", latitude: 37.40, longitude: -122.10, style: .selected),
            MapPin(id: "c", latitude: 37.39, longitude: -122.09, style: .match),
        ]
        let frame = MapRenderer().render(view, pins: pins)
        guard let cell = frame.cell(ofPin: "a") else {
            Issue.record("pin a is not on screen")
            return
        }
        #expect(frame.grid[cell.column, cell.row] == MapCell(character: "3", style: .cluster(.selected)))
        #expect(frame.pins(atColumn: cell.column, row: cell.row).map(\.id) == ["b", "c", "a"])
    }

    @Test func largeClustersShowPlus() {
        let view = Viewport.world(width: 80, height: 24)
        let pins = (0..<12).map { MapPin(id: "\($0)", latitude: 10, longitude: 10) }
        let frame = MapRenderer().render(view, pins: pins)
        let cell = frame.cell(ofPin: "0")
        #expect(cell.flatMap { frame.grid[$0.column, $0.row]?.character } == "+")
    }

    @Test func nextPinFollowsTheDirection() {
        let view = Viewport.world(width: 120, height: 40)
        let pins = [
            MapPin(id: "sf", latitude: 37.8, longitude: -122.4),
            MapPin(id: "ny", latitude: 40.7, longitude: -74.0),
            MapPin(id: "rio", latitude: -22.9, longitude: -43.2),
            MapPin(id: "anchorage", latitude: 61.2, longitude: -149.9),
            MapPin(id: "london", latitude: 51.5, longitude: -0.1),
        ]
        let frame = MapRenderer().render(view, pins: pins)
        #expect(frame.nextPin(from: "sf", direction: .right)?.id == "ny")
        #expect(frame.nextPin(from: "ny", direction: .right)?.id == "london")
        #expect(frame.nextPin(from: "ny", direction: .down)?.id == "rio")
        #expect(frame.nextPin(from: "sf", direction: .up)?.id == "anchorage")
        #expect(frame.nextPin(from: "rio", direction: .down) == nil)
        #expect(frame.nextPin(from: "sf", direction: .left)?.id == "anchorage")
        #expect(frame.nextPin(from: nil, direction: .left) != nil)
    }

    @Test func wrapsAcrossTheAntimeridian() throws {
        let view = Viewport(width: 80, height: 24, centerLatitude: -17, centerLongitude: 178, zoom: 8)
        let east = try #require(view.cell(latitude: -17.8, longitude: -178))  // Fiji's east, past 180
        #expect(east.column > 40)
        var panned = view
        panned.pan(columns: 400, rows: 0)
        #expect(panned.centerLongitude >= -180 && panned.centerLongitude < 180)
        // Land of Fiji (both sides of 180°) is drawn.
        let frame = MapRenderer().render(view)
        #expect(frame.grid.cells.contains { $0.style != .water })
    }

    @Test func worldViewCropsAntarctica() {
        let view = Viewport.world(width: 100, height: 30)
        let frame = MapRenderer().render(view)
        let southRow = Int(view.position(latitude: -62, longitude: 0)?.row ?? 0)
        for row in southRow..<view.height {
            #expect(frame.grid.lines[row].allSatisfy { $0 == " " })
        }
        let zoomed = Viewport(width: 100, height: 30, centerLatitude: -75, centerLongitude: 0, zoom: 4)
        #expect(MapRenderer().render(zoomed).grid.cells.contains { $0.style == .land })
    }

    @Test func fitShowsTheRegion() throws {
        var view = Viewport(width: 80, height: 30)
        let region = MapRegion(minLatitude: 37.2, maxLatitude: 38.0, minLongitude: -122.6, maxLongitude: -121.8)
        view.fit(region)
        #expect(view.cell(latitude: 37.2, longitude: -122.6) != nil)
        #expect(view.cell(latitude: 38.0, longitude: -121.8) != nil)
        #expect(view.zoom > 50)
        #expect(
            MapRenderer().land(for: view).vertexCount
                > MapRenderer().land(for: .world(width: 80, height: 30)).vertexCount)
    }

    @Test func zoomAndPanStayInRange() {
        var view = Viewport.world(width: 80, height: 24)
        view.zoom(by: 0.5)
        #expect(view.zoom == 1)
        view.zoom(by: 1e12)
        #expect(view.zoom == Viewport.maximumZoom)
        view.pan(columns: 0, rows: -100_000)
        #expect(view.visibleRegion.maxLatitude <= 90.0001)
    }

    @Test func zoomTowardAPointKeepsItInPlace() throws {
        var view = Viewport(width: 120, height: 40, centerLatitude: 40, centerLongitude: -40, zoom: 4)
        let before = view.coordinate(column: 30.5, row: 10.5)
        view.zoom(by: 2, aroundColumn: 30.5, row: 10.5)
        let after = view.coordinate(column: 30.5, row: 10.5)
        #expect(view.zoom == 8)
        #expect(abs(after.latitude - before.latitude) < 1e-9)
        #expect(abs(after.longitude - before.longitude) < 1e-9)
    }

    @Test func hostileInputNeverCrashes() {
        var view = Viewport(width: -5, height: 0, centerLatitude: .nan, centerLongitude: .infinity, zoom: .nan)
        view.zoom(by: .nan)
        view.fit(MapRegion(minLatitude: .nan, maxLatitude: 1, minLongitude: 0, maxLongitude: 1))
        view.fit(MapRegion(minLatitude: 5, maxLatitude: 5, minLongitude: 5, maxLongitude: 5))
        let pins = [
            MapPin(id: "nan", latitude: .nan, longitude: 0),
            MapPin(id: "inf", latitude: 0, longitude: .infinity),
            MapPin(id: "far", latitude: 1000, longitude: 1e300),
            MapPin(id: "", latitude: -90, longitude: -180),
        ]
        let frame = MapRenderer().render(view, pins: pins)
        #expect(frame.grid.width >= 1 && frame.grid.height >= 1)
        #expect(frame.cell(ofPin: "nan") == nil)
        #expect(frame.pins(atColumn: -1, row: 99).isEmpty)
        _ = frame.nextPin(from: "nan", direction: .up)
    }

    @Test func asciiUsesOnlyAscii() {
        let frame = MapRenderer(mode: .ascii).render(.world(width: 100, height: 30), pins: samplePins)
        #expect(frame.grid.text.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test func brailleUsesBrailleForLand() {
        let frame = MapRenderer(mode: .braille).render(.world(width: 100, height: 30))
        for cell in frame.grid.cells where cell.style == .land || cell.style == .coast {
            #expect(cell.character.unicodeScalars.first.map { (0x2801...0x28FF).contains($0.value) } == true)
        }
    }

    /// A picture's layers are made on two threads (halves of the rows; the land's crossings
    /// beside the border lines): the same dots as on one, for the world, a city with state
    /// lines, an outlined country, and an odd number of rows.
    @Test func twoThreadsDrawTheSameLayersAsOne() {
        var renderer = MapRenderer()
        var city = Viewport(width: 1000, height: 301, centerLatitude: 37.6, centerLongitude: -122.2, zoom: 40)
        city.setZoom(40)
        let world = Viewport.world(width: 1000, height: 300)
        for viewport in [world, city] {
            let one = renderer.layers(viewport, dashedAdmin1: false, twoThreads: false)
            let two = renderer.layers(viewport, dashedAdmin1: false, twoThreads: true)
            #expect(one == two)
            #expect(one.land.contains(0xFF) && one.coast.contains { $0 != 0 })
        }
        #expect(renderer.layers(world, dashedAdmin1: false).borders.contains { $0 != 0 })
        #expect(renderer.layers(city, dashedAdmin1: false).admin1.contains { $0 != 0 }, "state lines at this zoom")
        renderer.outlinedCountry = 0
        #expect(renderer.layers(world, twoThreads: false) == renderer.layers(world, twoThreads: true))
    }
}
