import SafeText
import ViewModels

/// The Cards pane: a grid of student cards that reflows with the terminal width.
public enum CardsPane {
    static let cardWidth = 30
    static let cardHeight = 7

    public static func columns(for width: Int) -> Int { max(1, (width + 1) / (cardWidth + 1)) }

    public static func render(_ buffer: inout Buffer, model: MainModel, in rect: Rect) -> [Hotspot] {
        guard !model.rows.isEmpty else {
            buffer.putCentered("No locations to show.", in: rect.row(1), style: .dim)
            return []
        }
        // The first line names the order (`s` cycles it), as the table's header does.
        buffer.put(
            RowLook.sortLine(model.browse.sort, hasHome: model.home != nil), x: rect.x, y: rect.y, style: .dim,
            maxWidth: rect.width)
        let rect = Rect(x: rect.x, y: rect.y + 1, width: rect.width, height: max(0, rect.height - 1))
        let perRow = columns(for: rect.width)
        let width = min(cardWidth, rect.width)
        let visibleRows = max(1, rect.height / cardHeight)
        let selected = model.browse.selectedIndex(in: model.rows) ?? 0
        let firstRow = max(0, selected / perRow - visibleRows + 1)
        var hotspots: [Hotspot] = []
        for slot in 0..<(visibleRows * perRow) {
            let index = firstRow * perRow + slot
            guard index < model.rows.count else { break }
            let row = model.rows[index]
            let card = Rect(
                x: rect.x + (slot % perRow) * (width + 1), y: rect.y + (slot / perRow) * cardHeight, width: width,
                height: cardHeight)
            guard card.maxY <= rect.maxY else { break }
            let isSelected = index == model.browse.selectedIndex(in: model.rows)
            let mine = model.viewer.owns(row)
            buffer.box(card, style: isSelected ? Style(foreground: .cyan, bold: true) : .dim, ascii: model.ascii)
            let inner = card.inset(1)
            let nameStyle = isSelected ? Style(bold: true, reverse: true) : Style.bold
            buffer.put(
                (mine ? "● " : "") + (model.newRows.contains(row.objectId) ? "new " : "") + RowLook.hiddenMark(row)
                    + SafeText.clean(row.fullName) + (mine && model.accessible ? " (you)" : ""),
                x: inner.x, y: inner.y, style: nameStyle, maxWidth: inner.width)
            buffer.put(SafeText.clean(row.mapString), x: inner.x, y: inner.y + 1, maxWidth: inner.width)
            let km = RowFacts.distanceText(RowFacts.distance(of: row, from: model.home))
            let country = (RowFacts.country(of: row) ?? "") + (km.isEmpty ? "" : " · \(km) km")
            buffer.put(country, x: inner.x, y: inner.y + 2, maxWidth: inner.width)
            RowLook.putLink(row.mediaURL, in: &buffer, x: inner.x, y: inner.y + 3, width: inner.width, style: .plain)
            let date = row.updatedAt ?? row.createdAt
            let age = [date.map { AgeText.text(from: $0, now: model.now) } ?? "", RowLook.hiddenNote(row)]
                .filter { !$0.isEmpty }.joined(separator: " · ")
            buffer.put(age, x: inner.x, y: inner.y + 4, style: RowLook.recency(date, now: model.now), maxWidth: inner.width)
            hotspots.append(Hotspot(rect: card, target: .row(row.objectId)))
        }
        return hotspots
    }
}
