import SafeText
import ViewModels

/// The Map pane in accessible mode: the last action's sentence, then `MapWords`' listing of the
/// view, scrolled so the selected classmate's line is in sight. No Braille, no box drawing.
public enum MapWordsPane {
    public static func render(_ buffer: inout Buffer, model: MainModel, in rect: Rect) -> [Hotspot] {
        let area = MapPane.mapRect(rect)
        let viewport = model.map.viewport(width: area.width, height: area.height)
        let lines = MapWords.lines(
            viewport: viewport, rows: model.rows, selectedID: model.selected?.objectId, viewer: model.viewer,
            home: model.home, now: model.now)
        var top = rect.y
        if let announcement = model.announcement {
            buffer.put(
                MapWords.spoken(SafeText.clean(announcement)), x: rect.x + 1, y: top, style: .bold,
                maxWidth: rect.width - 2)
            top += 1
        }
        // The two heading lines stay; the listing below them scrolls to the selection.
        let heading = min(2, lines.count)
        for (index, line) in lines.prefix(heading).enumerated() {
            buffer.put(line.text, x: rect.x + 1, y: top + index, maxWidth: rect.width - 2)
        }
        let listTop = top + heading
        let room = max(0, rect.maxY - listTop)
        let listing = Array(lines.dropFirst(heading))
        let selectedLine = listing.firstIndex { $0.id != nil && $0.id == model.selected?.objectId }
        var offset = 0
        if let selectedLine, selectedLine >= room {
            offset = min(selectedLine - room / 2, max(0, listing.count - room))
        }
        var hotspots: [Hotspot] = []
        for (index, line) in listing.dropFirst(offset).prefix(room).enumerated() {
            let y = listTop + index
            let selected = line.id != nil && line.id == model.selected?.objectId
            buffer.put(
                line.text, x: rect.x + 1, y: y, style: selected ? Style(bold: true, reverse: true) : .plain,
                maxWidth: rect.width - 2)
            if let id = line.id {
                hotspots.append(
                    Hotspot(rect: Rect(x: rect.x + 1, y: y, width: rect.width - 2, height: 1), target: .row(id)))
            }
        }
        if offset + room < listing.count {
            buffer.fill(Rect(x: rect.x, y: rect.maxY - 1, width: rect.width, height: 1))
            buffer.put(
                "\(listing.count - offset - room) more lines below", x: rect.x + 1, y: rect.maxY - 1, style: .dim,
                maxWidth: rect.width - 2)
        }
        if model.annotationOpen, let selected = model.selected {
            let text = MapWords.describe(selected, viewer: model.viewer, home: model.home, now: model.now)
            let link = MapWords.spoken(SafeText.clean(selected.mediaURL))
            let y = rect.maxY - 2
            buffer.fill(Rect(x: rect.x, y: y, width: rect.width, height: 2))
            buffer.put("Details: " + text, x: rect.x + 1, y: y, style: .bold, maxWidth: rect.width - 2)
            buffer.put(
                "Link: \(link) (Enter or o opens, Esc closes)", x: rect.x + 1, y: y + 1, maxWidth: rect.width - 2)
        }
        return hotspots
    }
}
