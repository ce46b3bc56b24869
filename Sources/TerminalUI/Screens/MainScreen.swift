import SafeText
import ViewModels

/// The main view: top bar, tabs, the current pane, filter line, footer, and overlays.
public enum MainScreen {
    /// Where the pane content goes for a terminal of this size.
    public static func contentRect(width: Int, height: Int) -> Rect {
        Rect(x: 0, y: 3, width: width, height: height - 5)
    }

    public static func render(_ model: MainModel, width: Int, height: Int) -> Frame {
        var buffer = Buffer(width: width, height: height)
        var hotspots: [Hotspot] = []
        var picture: PictureScene?
        // Top bar: [Logout]   On the Map   [Pin] [Refresh]
        let bar = Style(foreground: .cyan, bold: true)
        let logout = Controls.button(&buffer, x: 0, y: 0, title: "Logout", focused: false)
        hotspots.append(Hotspot(rect: logout, target: .button(.logout)))
        buffer.putCentered("On the Map", in: Rect(x: 0, y: 0, width: width, height: 1), style: bar)
        let refreshTitle = model.isRefreshing ? Controls.spinner(milliseconds: model.milliseconds) : "Refresh"
        let refreshWidth = refreshTitle.count + 4
        let refresh = Controls.button(&buffer, x: width - refreshWidth, y: 0, title: refreshTitle, focused: false)
        let pin = Controls.button(&buffer, x: width - refreshWidth - 8, y: 0, title: "Pin", focused: false)
        hotspots += [Hotspot(rect: refresh, target: .button(.refresh)), Hotspot(rect: pin, target: .button(.pin))]
        // Tabs.
        var x = 1
        for pane in Pane.allCases {
            let label = " \(pane.rawValue + 1) \(pane.title) "
            let active = pane == model.browse.pane
            let used = buffer.put(label, x: x, y: 1, style: active ? Style(bold: true, reverse: true) : .plain)
            hotspots.append(Hotspot(rect: Rect(x: x, y: 1, width: used, height: 1), target: .pane(pane.rawValue)))
            x += used + 1
        }
        let shownCount = model.browse.filter.isEmpty ? "" : "\(model.rows.count) of \(model.totalCount) match"
        if !shownCount.isEmpty { buffer.put(shownCount, x: width - shownCount.count - 1, y: 1, style: .accent) }
        buffer.fill(Rect(x: 0, y: 2, width: width, height: 1), character: model.ascii ? "-" : "─")
        // Pane.
        let content = contentRect(width: width, height: height)
        switch model.browse.pane {
        case .map: hotspots += MapPane.render(&buffer, model: model, in: content, picture: &picture)
        case .table: hotspots += TablePane.render(&buffer, model: model, in: content)
        case .cards: hotspots += CardsPane.render(&buffer, model: model, in: content)
        }
        // Filter line.
        let filterY = height - 2
        if model.browse.isEditingFilter || !model.browse.filter.isEmpty {
            let cursor = model.browse.isEditingFilter ? "▏" : ""
            buffer.fill(Rect(x: 0, y: filterY, width: width, height: 1))
            buffer.put(
                "/" + SafeText.clean(model.browse.filter) + cursor, x: 0, y: filterY, style: .accent,
                maxWidth: width - 30)
            let hint = model.browse.isEditingFilter ? "Enter keeps · Esc clears" : "n/N match · Esc clears"
            buffer.put(hint, x: width - hint.count - 1, y: filterY, style: .dim)
        }
        let contexts = KeyContext.browsing(model.browse.pane, moderator: model.viewer.isModerator)
        if let prompt = model.goTo { hotspots += GoToOverlay.render(&buffer, prompt: prompt, in: content, ascii: model.ascii) }
        let footerKeys = model.keys.footer(model.goTo == nil ? contexts : [.goTo])
        Footer.render(&buffer, text: footerKeys, status: "\(model.status) · \(model.server)")
        if let toast = model.toast { Overlay.toast(&buffer, text: toast) }
        if model.helpOpen {
            Overlay.help(&buffer, lines: model.keys.helpLines(contexts), ascii: model.ascii)
        }
        if let alert = model.alert {
            let ok = Overlay.alert(&buffer, title: "On the Map", message: alert, ascii: model.ascii)
            hotspots.append(Hotspot(rect: ok, target: .button(.dismiss)))
        }
        var frame = Frame(buffer: buffer, hotspots: hotspots)
        frame.pictures = picture.map { [$0] } ?? []
        return frame
    }
}
