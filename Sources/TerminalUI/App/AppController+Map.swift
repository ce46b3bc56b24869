import OnTheMapModels
import ViewModels
import WorldMap

/// The Map pane's view: panning, zooming and following the selection, through a viewport of
/// the size the map was last drawn at.
extension AppController {
    /// The map's rectangle on screen now.
    var mapArea: Rect {
        let size = (lastFrame?.buffer.width ?? 80, lastFrame?.buffer.height ?? 24)
        return MapPane.mapRect(MainScreen.contentRect(width: size.0, height: size.1))
    }

    /// Changes the map view through a viewport of the size it is drawn at.
    func changeMap(_ change: (inout Viewport) -> Void) {
        let area = mapArea
        map.update(width: area.width, height: area.height, change)
    }

    /// Zooms so that the selected pin stays where it is on screen (else around the centre).
    func zoomKeepingSelection(_ factor: Double) {
        let pin = app.selectedRow
        changeMap { viewport in
            if let pin, let cell = viewport.cell(latitude: pin.latitude, longitude: pin.longitude) {
                viewport.zoom(by: factor, aroundColumn: Double(cell.column) + 0.5, row: Double(cell.row) + 0.5)
            } else {
                viewport.zoom(by: factor)
            }
        }
    }

    /// Selects the next or previous pin and, when zoomed in, centres it.
    func stepPin(_ delta: Int) {
        app.browse.move(by: delta, in: app.visibleRows)
        if let row = app.selectedRow, map.zoom > 1 {
            changeMap { $0.center(latitude: row.latitude, longitude: row.longitude) }
        }
    }

    /// `m` in the Table: the Map, zoomed in on the selected row.
    func showSelectionOnMap() {
        guard let row = app.selectedRow else { return }
        changeMap { $0.setZoom(max($0.zoom, 8)) }
        changeMap { $0.center(latitude: row.latitude, longitude: row.longitude) }
        app.browse.pane = .map
    }

    /// `c`: the selected pin in the middle of the map, at the same zoom.
    func centerOnSelection() {
        guard let row = app.selectedRow else { return }
        changeMap { $0.center(latitude: row.latitude, longitude: row.longitude) }
    }

    /// `f` / `F`: the smallest view that holds every one of these pins.
    func fitPins(_ rows: [StudentInformation]) {
        guard let region = MapRegion.enclosing(rows.map { ($0.latitude, $0.longitude) }) else { return }
        changeMap { $0.fit(region) }
    }
}
