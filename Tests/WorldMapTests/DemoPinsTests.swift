import DemoClass
import Foundation
import Testing

@testable import WorldMap

/// The demo class's places land on or next to land, at world
/// zoom and zoomed on each place: the land data and the projection agree.
@Suite struct DemoPinsTests {
    /// The demo class's places, as the server seeds them (the DemoClass target).
    static func demoPlaces() -> [(String, Double, Double)] { DemoPlaces.all }

    /// Whether the cell or one of its eight neighbours has land in it.
    func nearLand(_ frame: MapFrame, _ cell: (column: Int, row: Int)) -> Bool {
        for dy in -1...1 {
            for dx in -1...1 {
                if let c = frame.grid[cell.column + dx, cell.row + dy], c.style != .water { return true }
            }
        }
        return false
    }

    @Test(arguments: [(120, 40), (200, 60)])
    func demoPlacesSitOnLandAtWorldZoom(_ size: (Int, Int)) throws {
        let places = Self.demoPlaces().filter { $0.1 > Viewport.worldSouth }
        try #require(places.count > 50)
        let view = Viewport.world(width: size.0, height: size.1)
        let frame = MapRenderer().render(view)
        let offLand = places.filter { place in
            guard let cell = view.cell(latitude: place.1, longitude: place.2) else { return true }
            return !nearLand(frame, cell)
        }
        #expect(offLand.isEmpty, "\(offLand.map(\.0))")
    }

    @Test func demoPlacesSitOnLandZoomedIn() throws {
        let places = Self.demoPlaces()
        try #require(places.count > 50)
        var offLand: [String] = []
        for (name, latitude, longitude) in places {
            let view = Viewport(
                width: 60, height: 20, centerLatitude: latitude, centerLongitude: longitude, zoom: 64)
            let frame = MapRenderer().render(view)
            guard let cell = view.cell(latitude: latitude, longitude: longitude), nearLand(frame, cell) else {
                offLand.append(name)
                continue
            }
        }
        #expect(offLand.isEmpty, "\(offLand)")
    }

    @Test func demoPinsAllShowOnTheWorldMap() {
        let places = Self.demoPlaces().filter { $0.1 > Viewport.worldSouth }
        let pins = places.enumerated().map { MapPin(id: "\($0.offset)", latitude: $0.element.1, longitude: $0.element.2) }
        let frame = MapRenderer(mode: .ascii).render(.world(width: 120, height: 40), pins: pins)
        let drawn = frame.grid.cells.reduce(0) { count, cell in
            switch cell.style {
            case .pin: count + 1
            case .cluster: count + (Int(String(cell.character)) ?? 10)
            default: count
            }
        }
        #expect(drawn >= pins.count)
        #expect(pins.allSatisfy { frame.cell(ofPin: $0.id) != nil })
    }
}
