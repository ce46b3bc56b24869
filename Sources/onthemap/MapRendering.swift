import Foundation
import OnTheMapModels
import WorldMap

/// Turns locations into map text for `onthemap map` (no curses; pipe-friendly).
enum MapRendering {
    /// Pins for locations: one per record, keyed by objectId.
    static func pins(_ locations: [StudentInformation]) -> [MapPin] {
        locations.map { MapPin(id: $0.objectId, latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// The map lines plus one footer line, each ending in a newline.
    /// The view `map` shows: `view` when given, else centred on `center` (or the world's centre) at `zoom`.
    static func viewport(
        width: Int, height: Int, center: (latitude: Double, longitude: Double)?, zoom: Double, view: Viewport? = nil
    ) -> Viewport {
        if let view { return view }
        if let center {
            return Viewport(
                width: width, height: height, centerLatitude: center.latitude, centerLongitude: center.longitude,
                zoom: zoom)
        }
        var viewport = Viewport.world(width: width, height: height)
        viewport.setZoom(zoom)
        return viewport
    }

    static func render(
        _ locations: [StudentInformation], width: Int, height: Int, center: (latitude: Double, longitude: Double)?,
        zoom: Double, view: Viewport? = nil, mode: MapRenderer.Mode, colored: Bool = false
    ) -> String {
        let viewport = Self.viewport(width: width, height: height, center: center, zoom: zoom, view: view)
        let frame = MapRenderer(mode: mode).render(viewport, pins: pins(locations))
        let shown = frame.pins.indices.filter { frame.cell(ofPinAt: $0) != nil }.count
        var footer = "\(locations.count) location\(locations.count == 1 ? "" : "s")"
        if shown < locations.count { footer += ", \(locations.count - shown) outside this view" }
        let scale = MapScale(viewport)
        footer +=
            " · \(scale.bar(ascii: mode == .ascii)) · centre \(scale.center(ascii: mode == .ascii))"
            + " · zoom \(String(format: viewport.zoom < 10 ? "%.1f" : "%.0f", viewport.zoom))"
            + " · o one pin, 2–9/+ several · map: Natural Earth, names: GeoNames"
        if mode == .ascii {
            footer = footer.replacingOccurrences(of: "·", with: "-").replacingOccurrences(of: "–", with: "-")
        }
        let lines =
            colored
            ? MapColoring.lines(frame.grid)
            : frame.grid.lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        return lines.joined(separator: "\n") + "\n" + footer + "\n"
    }

    /// "LAT,LON" as a coordinate, or nil when it is not one.
    static func coordinate(_ text: String) -> (latitude: Double, longitude: Double)? {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return (latitude, longitude)
    }

    /// The size to draw: the options, else the terminal's (less two lines), else 160×48.
    static func size(width: Int?, height: Int?) -> (width: Int, height: Int) {
        var terminal: (Int, Int)?
        var size = winsize()
        if isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0,
            size.ws_row > 2
        {
            terminal = (Int(size.ws_col), Int(size.ws_row) - 2)
        }
        return (width ?? terminal?.0 ?? 160, height ?? terminal?.1 ?? 48)
    }
}
