/// The view a found place is shown in (the posting preview, `onthemap map --place`): an area
/// (country, region) fitted with its neighbours around it; a city close in, but zoomed out
/// until a few other cities are named around it and a country border is in view.
public enum PlaceView {
    /// Zooms tried for a city, closest first.
    static let cityZooms: [Double] = [128, 64, 32, 16, 8, 4]

    /// - Parameters:
    ///   - region: the place's extent; an area is fitted to it (zoomed out by `areaMargin` to
    ///     show its neighbours).
    ///   - name: written beside the place's pin (and not counted among the neighbours).
    ///   - isArea: false for a city or an address.
    ///   - neighbours: city names besides the place's own wanted in view.
    public static func viewport(
        width: Int, height: Int, latitude: Double, longitude: Double, name: String? = nil, region: MapRegion,
        isArea: Bool, renderer: MapRenderer = MapRenderer(), neighbours: Int = 3, areaMargin: Double = 1.5
    ) -> Viewport {
        var viewport = Viewport(width: width, height: height)
        if isArea {
            viewport.fit(region)
            viewport.setZoom(viewport.zoom / areaMargin)
            return viewport
        }
        for zoom in cityZooms {
            viewport = Viewport(
                width: width, height: height, centerLatitude: latitude, centerLongitude: longitude, zoom: zoom)
            let pin = MapPin(id: "place", latitude: latitude, longitude: longitude, style: .selected, label: name)
            let grid = renderer.render(viewport, pins: [pin]).grid
            if namedCities(in: grid) >= neighbours && bordersInside(grid) >= 3 { return viewport }
        }
        return viewport
    }

    /// Border cells away from the grid's left and right edges (where a frame would hide them).
    static func bordersInside(_ grid: MapGrid) -> Int {
        guard grid.width > 6 else { return 0 }
        var count = 0
        for row in 0..<grid.height {
            for column in 3..<(grid.width - 3) where grid[column, row]?.style == .border { count += 1 }
        }
        return count
    }

    /// The number of city names written in a grid.
    static func namedCities(in grid: MapGrid) -> Int {
        var count = 0
        var previous: CellStyle?
        for (index, cell) in grid.cells.enumerated() {
            if index % grid.width == 0 { previous = nil }
            if cell.style == .label(.city) && previous != .label(.city) { count += 1 }
            previous = cell.style
        }
        return count
    }
}
