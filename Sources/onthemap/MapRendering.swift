import Foundation
import OnTheMapModels
import TerminalUI
import WorldMap

/// Turns locations into map text for `onthemap map` (no curses; pipe-friendly).
enum MapRendering {
    /// Pins for locations: one per record, keyed by objectId.
    static func pins(_ locations: [StudentInformation]) -> [MapPin] {
        locations.map { MapPin(id: $0.objectId, latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// The view `map` shows at this size: `view`'s when given, else centred on `center` (or the
    /// world's centre) at `zoom` (the accessible mode's words describe it).
    static func viewport(
        width: Int, height: Int, center: (latitude: Double, longitude: Double)?, zoom: Double,
        view: ((_ width: Int, _ height: Int) -> Viewport)? = nil
    ) -> Viewport {
        if let view { return view(width, height) }
        if let center {
            return Viewport(
                width: width, height: height, centerLatitude: center.latitude, centerLongitude: center.longitude,
                zoom: zoom)
        }
        var viewport = Viewport.world(width: width, height: height)
        viewport.setZoom(zoom)
        return viewport
    }

    /// `height` lines at most, none wider than `width` columns, each ending in a newline: the map,
    /// then its footer (counts, scale, centre, zoom, the pin legend and the data's attribution),
    /// wrapped to the width. `view` makes the viewport for a map size (a place's view), else the
    /// world or `center` at `zoom`. With a theme, the map's cells are coloured (`MapColoring`).
    static func render(
        _ locations: [StudentInformation], width: Int, height: Int, center: (latitude: Double, longitude: Double)?,
        zoom: Double, view: ((_ width: Int, _ height: Int) -> Viewport)? = nil, mode: MapRenderer.Mode,
        theme: Theme? = nil
    ) -> String {
        let ascii = mode == .ascii
        // The footer's length depends on the view (what is outside it, the scale), and the map's
        // height on the footer's: start from one footer line and grow while it takes more.
        var footerHeight = 1
        while true {
            var viewport = Viewport.world(width: width, height: height - footerHeight)
            if let view {
                viewport = view(width, height - footerHeight)
            } else if let center {
                viewport = Viewport(
                    width: width, height: height - footerHeight, centerLatitude: center.latitude,
                    centerLongitude: center.longitude, zoom: zoom)
            } else {
                viewport.setZoom(zoom)
            }
            let renderer = MapRenderer(mode: mode)
            let frame = renderer.render(viewport, pins: pins(locations))
            let shown = frame.pins.indices.filter { frame.cell(ofPinAt: $0) != nil }.count
            var count = "\(locations.count) location\(locations.count == 1 ? "" : "s")"
            if shown < locations.count { count += ", \(locations.count - shown) outside this view" }
            let scale = MapScale(viewport)
            let parts = [
                count, scale.bar(ascii: ascii), "centre \(scale.center(ascii: ascii))",
                "zoom \(String(format: viewport.zoom < 10 ? "%.1f" : "%.0f", viewport.zoom))",
                ascii ? "o one pin, 2-9/+ several" : "o one pin, 2–9/+ several",
                // A close view is drawn from GSHHG (LGPL, whose attribution this is), as a PNG says.
                renderer.detailLevel(for: viewport) != nil
                    ? "map: GSHHG, Natural Earth, names: GeoNames" : "map: Natural Earth, names: GeoNames",
            ]
            let footer = footerLines(
                parts, droppable: [4, 3, 2, 1], width: width, maxLines: max(1, (height - 1) / 2),
                separator: ascii ? " - " : " · ")
            if footer.count > footerHeight {
                footerHeight = footer.count
                continue
            }
            let lines =
                theme.map { MapColoring.lines(frame.grid, theme: $0) }
                ?? frame.grid.lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            return (lines + footer).map { $0 + "\n" }.joined()
        }
    }

    /// `parts` joined by `separator` into lines of at most `width` characters: whole parts where
    /// they fit, a longer part broken at spaces (a longer word cut). While that takes more than
    /// `maxLines`, the parts at the indices in `droppable` are left out, first one first; what
    /// is still over is cut.
    static func footerLines(
        _ parts: [String], droppable: [Int], width: Int, maxLines: Int, separator: String
    ) -> [String] {
        var kept = Array(parts.indices)
        var lines = wrap(kept.map { parts[$0] }, width: width, separator: separator)
        for index in droppable where lines.count > maxLines {
            kept.removeAll { $0 == index }
            lines = wrap(kept.map { parts[$0] }, width: width, separator: separator)
        }
        return Array(lines.prefix(maxLines))
    }

    private static func wrap(_ parts: [String], width: Int, separator: String) -> [String] {
        var lines: [String] = []
        var current = ""
        func add(_ text: String, joiner: String) {
            if current.isEmpty {
                current = text
            } else if current.count + joiner.count + text.count <= width {
                current += joiner + text
            } else {
                lines.append(current)
                current = text
            }
        }
        for part in parts {
            if part.count <= width {
                add(part, joiner: separator)
                continue
            }
            var joiner = separator
            for word in part.split(separator: " ") {
                var word = Substring(word)
                while word.count > width {
                    if !current.isEmpty { lines.append(current) }
                    current = ""
                    lines.append(String(word.prefix(width)))
                    word = word.dropFirst(width)
                }
                if !word.isEmpty { add(String(word), joiner: joiner) }
                joiner = " "
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// "LAT,LON" as a coordinate, or nil when it is not one.
    static func coordinate(_ text: String) -> (latitude: Double, longitude: Double)? {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return (latitude, longitude)
    }

    /// The size to draw, map and footer: the options, else the terminal's (less a line for the
    /// prompt), else 160×48.
    static func size(width: Int?, height: Int?) -> (width: Int, height: Int) {
        var terminal: (Int, Int)?
        var size = winsize()
        if isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0,
            size.ws_row > 5
        {
            terminal = (Int(size.ws_col), Int(size.ws_row) - 1)
        }
        return (width ?? terminal?.0 ?? 160, height ?? terminal?.1 ?? 48)
    }
}
