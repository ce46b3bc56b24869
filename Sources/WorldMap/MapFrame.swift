/// A rendered map: the cells to show, plus what is needed to hit-test and navigate pins.
public struct MapFrame: Sendable {
    public let grid: MapGrid
    public let viewport: Viewport
    public let pins: [MapPin]
    /// Cell index (row * width + column) of each pin, -1 when not on screen.
    let pinCells: [Int32]

    /// The pins drawn in a cell (a cluster gives several), most important style first.
    public func pins(atColumn column: Int, row: Int) -> [MapPin] {
        guard column >= 0, column < grid.width, row >= 0, row < grid.height else { return [] }
        let target = Int32(row * grid.width + column)
        var found: [MapPin] = []
        for (index, cell) in pinCells.enumerated() where cell == target {
            found.append(pins[index])
        }
        return found.sorted { $0.style > $1.style }
    }

    /// The cell a pin is drawn in, or nil when it is off screen or unknown.
    public func cell(ofPin id: String) -> (column: Int, row: Int)? {
        guard let index = pins.firstIndex(where: { $0.id == id }), pinCells[index] >= 0 else { return nil }
        let cell = Int(pinCells[index])
        return (cell % grid.width, cell / grid.width)
    }

    /// The on-screen pin nearest in a direction from the given pin (or from the centre when
    /// the id is nil or unknown), within a 60° cone either side; nil when there is none.
    public func nextPin(from id: String?, direction: MapDirection) -> MapPin? {
        var origin = (column: Double(grid.width) / 2, row: Double(grid.height) / 2)
        var originIndex: Int?
        if let id, let index = pins.firstIndex(where: { $0.id == id }),
            let p = viewport.position(latitude: pins[index].latitude, longitude: pins[index].longitude)
        {
            origin = p
            originIndex = index
        }
        let step = direction.step
        var best: (score: Double, index: Int)?
        for (index, cell) in pinCells.enumerated() where cell >= 0 && index != originIndex {
            guard let p = viewport.position(latitude: pins[index].latitude, longitude: pins[index].longitude)
            else { continue }
            // Rows are twice as tall as columns are wide.
            let dx = p.column - origin.column
            let dy = (p.row - origin.row) * 2
            let along = dx * step.dx + dy * step.dy
            let across = abs(dx * step.dy - dy * step.dx)
            guard along > 0, across <= along * 1.75 else { continue }
            let score = along + 2 * across
            if best == nil || score < best?.score ?? .infinity { best = (score, index) }
        }
        return best.map { pins[$0.index] }
    }
}

extension MapFrame {
    /// The cell the pin at `index` of `pins` is drawn in, or nil when it is off screen.
    public func cell(ofPinAt index: Int) -> (column: Int, row: Int)? {
        guard index >= 0, index < pinCells.count, pinCells[index] >= 0 else { return nil }
        let cell = Int(pinCells[index])
        return (cell % grid.width, cell / grid.width)
    }
}
