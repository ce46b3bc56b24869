import OnTheMapModels
import SafeText
import ViewModels

/// The Map pane: a pin per record at its place, the selected pin highlighted, and its annotation
/// (name, place, link, age) on Enter.
///
/// Until WorldMap is merged, the world is drawn as a graticule (no coastlines); pins are placed
/// with the same equirectangular projection WorldMap uses, so the land layer drops in underneath.
public enum MapPane {
    /// The cell of (latitude, longitude) in `rect` for `view`, or nil when outside.
    public static func cell(latitude: Double, longitude: Double, view: MapView, in rect: Rect) -> (x: Int, y: Int)? {
        guard latitude.isFinite, longitude.isFinite, rect.width > 0, rect.height > 0 else { return nil }
        let lonSpan = 360 / view.zoom
        let latSpan = 180 / view.zoom
        let fx = (longitude - (view.longitude - lonSpan / 2)) / lonSpan
        let fy = ((view.latitude + latSpan / 2) - latitude) / latSpan
        guard (0..<1).contains(fx), (0..<1).contains(fy) else { return nil }
        return (rect.x + Int(fx * Double(rect.width)), rect.y + Int(fy * Double(rect.height)))
    }

    public static func render(_ buffer: inout Buffer, model: MainModel, in rect: Rect) -> [Hotspot] {
        guard rect.height > 2 else { return [] }
        drawGraticule(&buffer, view: model.map, in: rect, ascii: model.ascii)
        var hotspots: [Hotspot] = []
        let selectedID = model.selected?.objectId
        var selectedCell: (x: Int, y: Int)?
        for row in model.rows.reversed() {
            guard let spot = cell(latitude: row.latitude, longitude: row.longitude, view: model.map, in: rect) else { continue }
            let mine = model.accountKey != nil && row.uniqueKey == model.accountKey
            if row.objectId == selectedID {
                selectedCell = spot
                continue
            }
            buffer[spot.x, spot.y] = Cell("●", style: Style(foreground: mine ? .yellow : .red, bold: true))
            hotspots.append(Hotspot(rect: Rect(x: spot.x, y: spot.y, width: 1, height: 1), target: .row(row.objectId)))
        }
        if let spot = selectedCell, let selected = model.selected {
            buffer[spot.x, spot.y] = Cell("◉", style: Style(foreground: .yellow, bold: true, reverse: true))
            hotspots.append(Hotspot(rect: Rect(x: spot.x, y: spot.y, width: 1, height: 1), target: .row(selected.objectId)))
        }
        let legend = "zoom \(Int(model.map.zoom))× · \(model.rows.count) pins · arrows pan · + - zoom · 0 reset · n/N pins"
        buffer.put(legend, x: rect.x + 1, y: rect.maxY - 1, style: .dim, maxWidth: rect.width - 2)
        if model.annotationOpen, let selected = model.selected {
            annotation(&buffer, for: selected, near: selectedCell, model: model, in: rect)
        }
        return hotspots
    }

    static func drawGraticule(_ buffer: inout Buffer, view: MapView, in rect: Rect, ascii: Bool) {
        let style = Style(foreground: .blue, dim: true)
        for latitude in stride(from: -60.0, through: 60.0, by: 30) {
            for longitude in stride(from: -180.0, through: 180.0, by: 2.0 / view.zoom) {
                if let spot = cell(latitude: latitude, longitude: longitude, view: view, in: rect) {
                    buffer[spot.x, spot.y] = Cell(ascii ? "." : "·", style: style)
                }
            }
        }
    }

    static func annotation(
        _ buffer: inout Buffer, for row: StudentInformation, near spot: (x: Int, y: Int)?, model: MainModel, in rect: Rect
    ) {
        let width = min(48, rect.width - 2)
        let box = Rect(
            x: min(max(rect.x + 1, (spot?.x ?? rect.x) - width / 2), rect.maxX - width - 1),
            y: min(max(rect.y, (spot?.y ?? rect.y) + 1), rect.maxY - 7), width: width, height: 7)
        buffer.fill(box)
        buffer.box(box, style: .accent, ascii: model.ascii)
        let inner = box.inset(1)
        let age = (row.updatedAt ?? row.createdAt).map { AgeText.text(from: $0, now: model.now) } ?? ""
        buffer.put(SafeText.clean(row.fullName), x: inner.x, y: inner.y, style: .bold, maxWidth: inner.width)
        buffer.put(SafeText.clean(row.mapString), x: inner.x, y: inner.y + 1, maxWidth: inner.width)
        buffer.put(SafeText.clean(row.mediaURL), x: inner.x, y: inner.y + 2, style: Style(foreground: .cyan, underline: true), maxWidth: inner.width)
        buffer.put(age, x: inner.x, y: inner.y + 3, style: .dim, maxWidth: inner.width)
        buffer.put("Enter/o open link · Esc close", x: inner.x, y: inner.y + 4, style: .dim, maxWidth: inner.width)
    }
}
