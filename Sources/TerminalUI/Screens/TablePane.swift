import OnTheMapModels
import SafeText
import ViewModels

/// The Table pane: a row per record (name, place, country, km from your pin, link with its host
/// picked out, age coloured by recency), in the chosen order (the header marks it), the user's
/// own rows marked, zebra shading, the selection in reverse.
public enum TablePane {
    /// Rows of data that fit in `rect` (one line is the header).
    public static func pageSize(_ rect: Rect) -> Int { max(1, rect.height - 1) }

    /// The first row to show so that the selection stays visible.
    public static func offset(selected: Int?, current: Int, pageSize: Int, count: Int) -> Int {
        var offset = min(current, max(0, count - pageSize))
        if let selected {
            if selected < offset { offset = selected }
            if selected >= offset + pageSize { offset = selected - pageSize + 1 }
        }
        return max(0, offset)
    }

    /// Column widths: name, place, country, km, link, age.
    static func columns(_ width: Int) -> [Int] {
        let (name, place, country, km, age) = (
            max(10, width * 20 / 100), max(10, width * 17 / 100), max(8, width * 12 / 100), 6, 12
        )
        return [name, place, country, km, max(4, width - 2 - name - place - country - km - age - 5), age]
    }

    public static func render(_ buffer: inout Buffer, model: MainModel, in rect: Rect) -> [Hotspot] {
        guard rect.height > 1 else { return [] }
        let widths = columns(rect.width)
        let header = Style(bold: true, underline: true)
        buffer.fill(rect.row(0), style: header)
        var x = rect.x + 2
        let titles: [(String, TableSort?)] = [
            ("Name", .name), ("Place", nil), ("Country", .country), ("km", .distance), ("Link", nil), ("Updated", .newest),
        ]
        for ((title, order), width) in zip(titles, widths) {
            let text = RowLook.title(title, sortedBy: order, current: model.browse.sort, ascii: model.ascii)
            // The km column is right-aligned, its title too.
            let shift = order == .distance ? max(0, width - SafeText.width(text)) : 0
            buffer.put(text, x: x + shift, y: rect.y, style: header, maxWidth: width)
            x += width + 1
        }
        if model.rows.isEmpty {
            let text =
                model.browse.filter.isEmpty
                ? "No locations yet. Press r to refresh." : "Nothing matches “\(SafeText.clean(model.browse.filter))”."
            buffer.putCentered(text, in: rect.row(2), style: .dim)
            return []
        }
        let size = pageSize(rect)
        let selected = model.browse.selectedIndex(in: model.rows)
        let offset = offset(
            selected: selected, current: model.browse.tableOffset, pageSize: size, count: model.rows.count)
        var hotspots: [Hotspot] = []
        for line in 0..<min(size, model.rows.count - offset) {
            let index = offset + line
            let row = model.rows[index]
            let y = rect.y + 1 + line
            var style = index % 2 == 1 ? Style.zebra : Style.plain
            if index == selected { style = Style(bold: true, reverse: true) }
            if row.hidden { style = RowLook.over(style, .dim) }
            buffer.fill(rect.row(1 + line), style: style)
            if model.viewer.owns(row) {
                buffer.put("●", x: rect.x, y: y, style: RowLook.over(style, Style(foreground: .yellow, bold: true)))
            }
            // Accessible mode says in words what the mark and the reverse video show.
            if model.accessible && index == selected { buffer.put(">", x: rect.x + 1, y: y, style: style) }
            let you = model.accessible && model.viewer.owns(row) ? " (you)" : ""
            let date = row.updatedAt ?? row.createdAt
            let km = RowFacts.distanceText(RowFacts.distance(of: row, from: model.home))
            var column = rect.x + 2
            let isNew = model.newRows.contains(row.objectId)
            let cells: [(String, Style)] = [
                (
                    (isNew ? "new " : "") + RowLook.hiddenMark(row) + SafeText.clean(row.fullName) + you,
                    isNew ? RowLook.over(style, RowLook.newTag) : style
                ),
                (SafeText.clean(row.mapString), style),
                (RowFacts.country(of: row) ?? "", style),
                (String(repeating: " ", count: max(0, widths[3] - km.count)) + km, style), ("", style),
                (date.map { AgeText.text(from: $0, now: model.now) } ?? "–", RowLook.over(style, RowLook.recency(date, now: model.now))),
            ]
            for (index, ((text, cellStyle), width)) in zip(cells, widths).enumerated() {
                if index == 4 {
                    RowLook.putLink(row.mediaURL, in: &buffer, x: column, y: y, width: width, style: style)
                } else {
                    buffer.put(text, x: column, y: y, style: cellStyle, maxWidth: width)
                }
                column += width + 1
            }
            hotspots.append(Hotspot(rect: rect.row(1 + line), target: .row(row.objectId)))
        }
        return hotspots
    }
}
