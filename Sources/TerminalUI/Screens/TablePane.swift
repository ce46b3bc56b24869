import OnTheMapModels
import SafeText
import ViewModels

/// The Table pane: a row per record (name, place, link, age), newest first, the user's own rows
/// marked, zebra shading, the selection in reverse.
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

    static func columns(_ width: Int) -> (name: Int, place: Int, link: Int, age: Int) {
        let age = 12
        let name = max(10, width * 22 / 100)
        let place = max(10, width * 26 / 100)
        return (name, place, max(4, width - 2 - name - place - age - 3), age)
    }

    public static func render(_ buffer: inout Buffer, model: MainModel, in rect: Rect) -> [Hotspot] {
        guard rect.height > 1 else { return [] }
        let widths = columns(rect.width)
        let header = Style(bold: true, underline: true)
        buffer.fill(rect.row(0), style: header)
        var x = rect.x + 2
        for (title, width) in [
            ("Name", widths.name), ("Place", widths.place), ("Link", widths.link), ("Updated", widths.age),
        ] {
            buffer.put(title, x: x, y: rect.y, style: header, maxWidth: width)
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
            buffer.fill(rect.row(1 + line), style: style)
            let mine = model.accountKey != nil && row.uniqueKey == model.accountKey
            if mine {
                buffer.put(
                    "●", x: rect.x, y: y,
                    style: Style(foreground: .yellow, background: style.background, bold: true, reverse: style.reverse))
            }
            var column = rect.x + 2
            let age = (row.updatedAt ?? row.createdAt).map { AgeText.text(from: $0, now: model.now) } ?? "–"
            let cells = [
                SafeText.clean(row.fullName), SafeText.clean(row.mapString), SafeText.clean(row.mediaURL), age,
            ]
            for (text, width) in zip(cells, [widths.name, widths.place, widths.link, widths.age]) {
                buffer.put(text, x: column, y: y, style: style, maxWidth: width)
                column += width + 1
            }
            hotspots.append(Hotspot(rect: rect.row(1 + line), target: .row(row.objectId)))
        }
        return hotspots
    }
}
