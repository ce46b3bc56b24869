import Geo
import SafeText
import ViewModels
import WorldMap

/// The posting modal: "Where are you studying today?", the fields and [ Find Location ]; a
/// spinner while geocoding; the preview (place, precision, alternatives) and [ Finish ]; the
/// overwrite question; a spinner while posting.
@MainActor
public enum PostingScreen {
    public static func render(
        _ model: PostingViewModel, over frame: Frame, milliseconds: Int, ascii: Bool = false,
        keys: KeyMap = .standard, accessible: Bool = false, graphics: Bool = false, pictureLimit: PictureLimit? = nil
    ) -> Frame {
        var buffer = frame.buffer
        var preview: PictureScene?
        buffer.restyle(buffer.area) { $0.dim = true }
        var hotspots: [Hotspot] = []
        let box = buffer.area.centered(width: min(72, buffer.width - 2), height: min(24, buffer.height - 2))
        buffer.fill(box)
        buffer.box(box, style: .accent, title: "Post your location", ascii: ascii)
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
        buffer.putCentered("Where are you studying today?", in: inner.row(1), style: .bold)
        let busy = model.step != .enter
        _ = Controls.textField(
            &buffer, x: inner.x, y: inner.y + 3, width: inner.width, label: "Location", labelWidth: 10,
            value: model.location,
            focused: model.focus == .location && !busy, dimmed: busy)
        _ = Controls.textField(
            &buffer, x: inner.x, y: inner.y + 5, width: inner.width, label: "Link", labelWidth: 10, value: model.link,
            focused: model.focus == .link && !busy, dimmed: busy)
        let buttonsY = inner.maxY - 1
        var primary = "Find Location"
        switch model.step {
        case .enter:
            break
        case .geocoding:
            buffer.put(
                "\(Controls.spinner(milliseconds: milliseconds)) Finding “\(SafeText.clean(model.location))”…",
                x: inner.x, y: inner.y + 7, style: .accent, maxWidth: inner.width)
            primary = ""
        case .confirm, .overwrite:
            preview = self.preview(
                &buffer, model: model,
                in: Rect(x: inner.x, y: inner.y + 7, width: inner.width, height: buttonsY - inner.y - 7), ascii: ascii,
                accessible: accessible, graphics: graphics, pictureLimit: pictureLimit)
            if case .overwrite = model.step {
                buffer.put(
                    "You already have a location. Overwrite it?", x: inner.x, y: buttonsY - 1,
                    style: Style(foreground: .yellow, bold: true), maxWidth: inner.width)
                primary = "Overwrite"
            } else {
                primary = "Finish"
            }
        case .posting:
            buffer.put(
                "\(Controls.spinner(milliseconds: milliseconds)) Posting…", x: inner.x, y: inner.y + 7, style: .accent)
            primary = ""
        case .done:
            buffer.put("Posted.", x: inner.x, y: inner.y + 7, style: .accent)
            primary = ""
        }
        if !primary.isEmpty {
            let rect = Controls.button(
                &buffer, x: inner.x, y: buttonsY, title: primary, focused: model.focus == .primary)
            hotspots.append(Hotspot(rect: rect, target: .button(.primary)))
        }
        let cancel = Controls.button(
            &buffer, x: inner.maxX - 10, y: buttonsY, title: "Cancel", focused: model.focus == .cancel)
        hotspots.append(Hotspot(rect: cancel, target: .button(.cancel)))
        Footer.render(
            &buffer, text: keys.footer(KeyContext.postingForm(step: model.step, onButton: false)), status: "")
        if let alert = model.alert {
            let ok = Overlay.alert(&buffer, title: "Post your location", message: alert, ascii: ascii)
            hotspots.append(Hotspot(rect: ok, target: .button(.dismiss)))
        }
        var form = Frame(buffer: buffer, hotspots: hotspots)
        // The map's picture stays, the form showing through it, and the preview lies over both.
        form.pictures = frame.pictures + (preview.map { [$0] } ?? [])
        return form
    }

    /// The chosen place: its name, coordinates and precision, the other matches, and its map —
    /// in cells, or with `graphics` as the picture returned (the names stay cells).
    @discardableResult
    static func preview(
        _ buffer: inout Buffer, model: PostingViewModel, in rect: Rect, ascii: Bool = false, accessible: Bool = false,
        graphics: Bool = false, pictureLimit: PictureLimit? = nil
    ) -> PictureScene? {
        guard let place = model.chosen, rect.height > 0 else { return nil }
        var picture: PictureScene?
        if rect.height >= 7 && accessible {
            // The mini-map in words (accessible mode): a drawn map reads as noise.
            buffer.put(MapWords.pinSentence(place), x: rect.x, y: rect.y + 3, maxWidth: rect.width)
        } else if rect.height >= 7 {
            picture = miniMap(
                &buffer, place: place, in: Rect(x: rect.x, y: rect.y + 3, width: rect.width, height: rect.height - 4),
                ascii: ascii, graphics: graphics, pictureLimit: pictureLimit)
        }
        let coordinates = String(format: "%.3f, %.3f", place.latitude, place.longitude)
        buffer.put(
            "◉ \(SafeText.clean(place.displayName))", x: rect.x, y: rect.y,
            style: Style(foreground: .yellow, bold: true), maxWidth: rect.width)
        buffer.put(
            "\(coordinates) · \(place.precision.rawValue) · \(model.precision.statement)", x: rect.x + 2, y: rect.y + 1,
            style: .dim, maxWidth: rect.width - 2)
        var alternatives: [Placemark] = []
        if case .confirm(let result) = model.step { alternatives = [result.best] + result.alternatives }
        if case .overwrite(let result, _) = model.step { alternatives = [result.best] + result.alternatives }
        if alternatives.count > 1, rect.height > 2 {
            let names = alternatives.enumerated().map { index, place in
                (index == model.choice ? "›" : " ") + SafeText.clean(place.displayName)
            }
            buffer.put(
                "← → other matches: " + names.joined(separator: "  "), x: rect.x, y: rect.y + 2, maxWidth: rect.width)
        }
        return picture
    }

    /// A map of the place with its name beside the pin (`placeMap`), drawn into `rect`; with
    /// `graphics`, only its names are cells and the map is the picture returned — unless the
    /// picture would not fit the terminal's `pictureLimit`: cells then.
    @discardableResult
    static func miniMap(
        _ buffer: inout Buffer, place: Placemark, in rect: Rect, ascii: Bool = false, graphics: Bool = false,
        pictureLimit: PictureLimit? = nil
    ) -> PictureScene? {
        let graphics = graphics && (pictureLimit.map { $0.fit(rect) == rect } ?? true)
        guard rect.width > 4, rect.height > 2 else { return nil }
        let (renderer, viewport, pin) = placeView(place, width: rect.width, height: rect.height, ascii: ascii)
        let grid = renderer.render(viewport, pins: [pin]).grid
        var map = MapView()
        (map.latitude, map.longitude, map.zoom) = (viewport.centerLatitude, viewport.centerLongitude, viewport.zoom)
        var picture =
            graphics
            ? PictureScene(id: 2, rect: rect, map: map, pins: [pin], outlinedCountry: renderer.outlinedCountry) : nil
        buffer.putMap(grid, in: rect, picture: &picture)
        return picture
    }

    /// The preview's map of a place, with its name beside the pin: a city with a few neighbouring
    /// cities named around it, a country or region fitted with its neighbours (see `PlaceView`),
    /// a country outlined in its own colour. `onthemap post` prints the same map at the same size
    /// (`previewMapSize`).
    nonisolated public static func placeMap(
        _ place: Placemark, width: Int, height: Int, ascii: Bool = false
    ) -> MapGrid {
        let (renderer, viewport, pin) = placeView(place, width: width, height: height, ascii: ascii)
        return renderer.render(viewport, pins: [pin]).grid
    }

    /// The renderer (a country outlined), the view and the pin of `placeMap`.
    nonisolated static func placeView(
        _ place: Placemark, width: Int, height: Int, ascii: Bool
    ) -> (MapRenderer, Viewport, MapPin) {
        var renderer = MapRenderer(mode: ascii ? .ascii : .braille)
        if place.precision == .country {
            // The country picked out among its neighbours.
            renderer.outlinedCountry = PlaceLabels.country(atLatitude: place.latitude, longitude: place.longitude)
        }
        let name = SafeText.clean(String(place.displayName.split(separator: ",").first ?? ""))
        let region = MapRegion(
            minLatitude: place.region.minLatitude, maxLatitude: place.region.maxLatitude,
            minLongitude: place.region.minLongitude, maxLongitude: place.region.maxLongitude)
        let viewport = PlaceView.viewport(
            width: width, height: height, latitude: place.latitude, longitude: place.longitude, name: name,
            region: region, isArea: place.precision == .country || place.precision == .region, renderer: renderer)
        let pin = MapPin(
            id: "new", latitude: place.latitude, longitude: place.longitude, style: .selected, label: name)
        return (renderer, viewport, pin)
    }

    /// The preview map's size in the full-size form (a terminal of 74×26 or more): the form's
    /// inside (72×24 less its frame and margins: 68×22) less the fields and the place's lines
    /// above the map and the buttons below it.
    nonisolated public static let previewMapSize = (width: 68, height: 10)
}
