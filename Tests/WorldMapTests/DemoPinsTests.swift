import Foundation
import Testing

@testable import WorldMap

/// The demo class's places (read from the server's source) land on or next to land, at world
/// zoom and zoomed on each place: the land data and the projection agree.
@Suite struct DemoPinsTests {
    static func demoPlaces() -> [(String, Double, Double)] {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/OnTheMapServer/Seed/DemoPlaces.swift")
        guard let text = try? String(contentsOf: source, encoding: .utf8),
            let pattern = try? NSRegularExpression(pattern: #"\("([^"]+)", (-?[0-9.]+), (-?[0-9.]+)\)"#)
        else { return [] }
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let name = Range(match.range(at: 1), in: text), let lat = Range(match.range(at: 2), in: text),
                let lon = Range(match.range(at: 3), in: text), let latitude = Double(text[lat]),
                let longitude = Double(text[lon])
            else { return nil }
            return (String(text[name]), latitude, longitude)
        }
    }

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
