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
        if let note = missingDetailedMapNote,
            MapRenderer().wantsDetailedMap(map.viewport(width: area.width, height: area.height))
        {
            missingDetailedMapNote = nil
            app.show(toast: note, seconds: 6)
        }
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

    /// Enter in "Go to": the map shows the place the way the posting preview does (`PlaceView`): a
    /// country or region fitted to its box, a city (or a classmate's pin) close in with its name
    /// and a few neighbours in view. The toast (and in accessible mode the announcement) says
    /// where it went and how many classmates are in view.
    func go(to completion: GoToCompletion) {
        let area = mapArea
        let viewport: Viewport
        switch completion.target {
        case .place(let place):
            let region = MapRegion(
                minLatitude: place.region.minLatitude, maxLatitude: place.region.maxLatitude,
                minLongitude: place.region.minLongitude, maxLongitude: place.region.maxLongitude)
            viewport = PlaceView.viewport(
                width: area.width, height: area.height, latitude: place.latitude, longitude: place.longitude,
                region: region, isArea: place.precision == .country || place.precision == .region,
                renderer: MapRenderer(mode: ascii ? .ascii : .braille), areaMargin: 1)
        case .classmate(let row):
            let region = MapRegion(
                minLatitude: row.latitude - 0.5, maxLatitude: row.latitude + 0.5, minLongitude: row.longitude - 0.5,
                maxLongitude: row.longitude + 0.5)
            viewport = PlaceView.viewport(
                width: area.width, height: area.height, latitude: row.latitude, longitude: row.longitude,
                region: region, isArea: false, renderer: MapRenderer(mode: ascii ? .ascii : .braille))
        }
        map.latitude = viewport.centerLatitude
        map.longitude = viewport.centerLongitude
        map.zoom = viewport.zoom
        let shown = MapWords.inView(app.visibleRows, viewport: viewport, home: app.ownPin).count
        app.show(toast: "\(completion.wentTo): \(MapWords.count(shown)) in view.")
    }

    /// `f` / `F`: the smallest view that holds every one of these pins.
    func fitPins(_ rows: [StudentInformation]) {
        guard let region = MapRegion.enclosing(rows.map { ($0.latitude, $0.longitude) }) else { return }
        changeMap { $0.fit(region) }
    }
}
