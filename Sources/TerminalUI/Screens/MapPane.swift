import OnTheMapModels
import SafeText
import ViewModels
import WorldMap

/// The Map pane: the world map (WorldMap, Braille or ASCII) with a pin per record, the selected
/// pin highlighted, clusters that split as you zoom, and the annotation (name, place, link, age)
/// on Enter.
public enum MapPane {
    /// The rectangle the map itself takes in the pane (the last row is the legend).
    public static func mapRect(_ pane: Rect) -> Rect {
        Rect(x: pane.x, y: pane.y, width: pane.width, height: pane.height - 1)
    }

    /// The pins for `rows`: own rows, matches of the filter, rows that just arrived live and the
    /// selection stand out.
    public static func pins(_ model: MainModel) -> [MapPin] {
        let selectedID = model.selected?.objectId
        let filtering = !model.browse.filter.isEmpty
        return model.rows.map { row in
            let style: PinStyle =
                row.objectId == selectedID
                ? .selected
                : model.viewer.owns(row) ? .own
                : filtering || model.newRows.contains(row.objectId) ? .match : .normal
            // The selected pin's student is named beside it on the map.
            let label = style == .selected ? SafeText.clean(row.fullName) : nil
            return MapPin(
                id: row.objectId, latitude: row.latitude, longitude: row.longitude, style: style, label: label)
        }
    }

    /// Draws the pane into `buffer`. With `model.graphics`, the map itself is `picture` and the
    /// cells keep only the names written on it (the hotspots, legend and annotation are the same).
    public static func render(_ buffer: inout Buffer, model: MainModel, in rect: Rect) -> [Hotspot] {
        var picture: PictureScene?
        return render(&buffer, model: model, in: rect, picture: &picture)
    }

    public static func render(_ buffer: inout Buffer, model: MainModel, in rect: Rect, picture: inout PictureScene?)
        -> [Hotspot]
    {
        guard rect.height > 2, rect.width > 2 else { return [] }
        if model.accessible { return MapWordsPane.render(&buffer, model: model, in: rect) }
        let pane = mapRect(rect)
        // A picture larger than the terminal shows is drawn smaller, in the pane's middle.
        let fitted = model.graphics ? model.pictureLimit.map { $0.fit(pane) } ?? pane : nil
        let area = fitted ?? pane
        let viewport = model.map.viewport(width: area.width, height: area.height)
        let pins = pins(model)
        let frame = MapRenderer(mode: model.ascii ? .ascii : .braille).render(viewport, pins: pins)
        if fitted != nil { picture = PictureScene(rect: area, map: model.map, pins: pins) }
        buffer.putMap(frame.grid, in: area, picture: &picture)
        var hotspots: [Hotspot] = []
        for pin in frame.pins {
            guard let spot = frame.cell(ofPin: pin.id) else { continue }
            hotspots.append(
                Hotspot(
                    rect: Rect(x: area.x + spot.column, y: area.y + spot.row, width: 1, height: 1), target: .row(pin.id)
                ))
        }
        // The selected pin's hotspot last, so it wins in a cluster.
        if let selected = model.selected?.objectId,
            let index = hotspots.firstIndex(where: { $0.target == .row(selected) })
        {
            hotspots.append(hotspots.remove(at: index))
        }
        let onScreen = hotspots.count
        let scale = MapScale(viewport)
        let legend =
            newPins(model) + "\(scale.bar(ascii: model.ascii)) · \(scale.center(ascii: model.ascii))"
            + " · zoom \(Int(viewport.zoom))\(model.ascii ? "x" : "×") · "
            + "\(onScreen) of \(model.rows.count) pins here"
        buffer.put(legend, x: rect.x + 1, y: rect.maxY - 1, style: .dim, maxWidth: rect.width - 2)
        if model.annotationOpen, let selected = model.selected {
            let spot = frame.cell(ofPin: selected.objectId).map { (x: area.x + $0.column, y: area.y + $0.row) }
            annotation(&buffer, for: selected, near: spot, model: model, in: area)
        }
        return hotspots
    }

    /// "new: Ada Lovelace (Lisbon) · " for the rows that just arrived live (the newest, and how
    /// many more): the map's mark in text, beside the pins' colour; first, so a narrow pane
    /// shortens the scale rather than the news.
    static func newPins(_ model: MainModel) -> String {
        let fresh = model.rows.filter { model.newRows.contains($0.objectId) }
        guard let first = fresh.first else { return "" }
        let more = fresh.count > 1 ? " +\(fresh.count - 1)" : ""
        return "new: \(SafeText.clean(first.fullName)) (\(SafeText.clean(first.mapString)))\(more) · "
    }

    static func annotation(
        _ buffer: inout Buffer, for row: StudentInformation, near spot: (x: Int, y: Int)?, model: MainModel,
        in rect: Rect
    ) {
        let width = min(48, rect.width - 2)
        let height = min(7, rect.height)
        let below = (spot?.y ?? rect.y) + 1
        let top = below + height <= rect.maxY ? below : max(rect.y, (spot?.y ?? rect.y) - height)
        let box = Rect(
            x: min(max(rect.x + 1, (spot?.x ?? rect.x) - width / 2), rect.maxX - width - 1), y: top, width: width,
            height: height)
        buffer.fill(box)
        buffer.box(box, style: .accent, ascii: model.ascii)
        let inner = box.inset(1)
        let date = (row.updatedAt ?? row.createdAt).map { AgeText.text(from: $0, now: model.now) } ?? ""
        let age = [date, RowLook.hiddenNote(row)].filter { !$0.isEmpty }.joined(separator: " · ")
        buffer.put(
            RowLook.hiddenMark(row) + SafeText.clean(row.fullName), x: inner.x, y: inner.y, style: .bold,
            maxWidth: inner.width)
        buffer.put(SafeText.clean(row.mapString), x: inner.x, y: inner.y + 1, maxWidth: inner.width)
        buffer.put(
            SafeText.clean(row.mediaURL), x: inner.x, y: inner.y + 2, style: Style(foreground: .cyan, underline: true),
            maxWidth: inner.width)
        buffer.put(age, x: inner.x, y: inner.y + 3, style: .dim, maxWidth: inner.width)
        buffer.put("Enter/o open link · Esc close", x: inner.x, y: inner.y + 4, style: .dim, maxWidth: inner.width)
    }
}
