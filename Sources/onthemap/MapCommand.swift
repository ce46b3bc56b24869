import APIClient
import ArgumentParser
import Foundation
import Geo
import MapPicture
import OnTheMapConfig
import OnTheMapModels
import TerminalUI
import UserFiles
import WorldMap

/// `onthemap map`: the 100 most recent locations as pins on a world map, printed to stdout.
struct MapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Print the most recent locations as pins on a world map.",
        discussion: """
            Braille by default (2×4 dots a character), --ascii for terminals without Braille glyphs. \
            The size, footer included, is the terminal's (less a line) when stdout is one, else \
            160×48. Pins: o one location, 2–9 or + several in one cell. Colours follow the theme \
            (--theme, ONTHEMAP_THEME, the settings file), as in the app. --accessible (or ACCESSIBLE=1) \
            tells the view in words instead. \
            Map data: Natural Earth (public domain) for the world and continents; closer in, GSHHG \
            2.3.6 shorelines, lakes and islands with WDBII rivers and borders (Wessel and Smith, \
            LGPL-3.0-or-later), read from share/onthemap/detail.otmd ($ONTHEMAP_MAP_DATA to use \
            another). Place names and the offline geocoder: GeoNames (CC BY 4.0). The footer and \
            every PNG credit what their view was drawn from.
            """)

    @OptionGroup var serverOptions: ServerOptions
    @Option(help: "Width in characters, every line (default: the terminal's, else 160).") var width: Int?
    @Option(help: "Height in lines, the footer included (default: the terminal's less one, else 48).")
    var height: Int?
    @Option(help: ArgumentHelp("Centre of the view, as LAT,LON.", valueName: "lat,lon")) var center: String?
    @Option(help: "Zoom: 1 shows the world, 2 halves the degrees a character covers, up to 4096.") var zoom: Double = 1
    @Option(
        help: ArgumentHelp(
            "Show a place found by the offline geocoder: \"Europe\", \"France\", \"Bay Area\", \"Paris\".",
            valueName: "place"))
    var place: String?
    @Flag(help: "Draw with ASCII instead of Braille.") var ascii = false
    @Flag(
        inversion: .prefixedNo,
        help: "In a PNG: the places' names, a title line (On the Map, the date, how many classmates) and the data's attribution.")
    var labels = true
    @Option(help: "Colour: auto (a terminal without NO_COLOR), always or never.") var color: MapColoring.Choice = .auto
    @Option(
        help: "auto (the default: dark, or light where COLORFGBG says the background is), dark, light or mono; NO_COLOR makes it mono.")
    var theme: ThemeSetting?
    @OptionGroup var accessible: AccessibleOption
    @Option(help: "text (the default: characters) or png (a picture, to --output or to stdout when it is not a terminal).")
    var format: Format = .text
    @Option(help: ArgumentHelp("Where to write the PNG (--format png), a new file of mode 0600.", valueName: "file"))
    var output: String?
    @Flag(help: "Replace --output when it exists.") var force = false
    @Option(help: ArgumentHelp("The PNG's size in pixels (--format png; default 1600x800).", valueName: "WxH"))
    var size: String?

    @Option(help: "Print the map as an image for a terminal that shows them: kitty (kitty, WezTerm, Ghostty, Konsole), iterm (iTerm2, WezTerm, VS Code) or sixel (foot, xterm -ti vt340, mlterm, Windows Terminal).")
    var graphics: ImageProtocol?

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, png }

    /// The PNG's size: `size` or 1600×800; each side 64…8192 pixels.
    static func pixelSize(_ text: String?) -> (width: Int, height: Int)? {
        guard let text else { return (1600, 800) }
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (64...8192).contains(width), (64...8192).contains(height)
        else { return nil }
        return (width, height)
    }

    func validate() throws {
        if let width, !(10...1000).contains(width) { throw ValidationError("--width must be between 10 and 1000.") }
        if let height, !(5...500).contains(height) { throw ValidationError("--height must be between 5 and 500.") }
        guard zoom.isFinite, (1...Viewport.maximumZoom).contains(zoom) else {
            throw ValidationError("--zoom must be between 1 and \(Int(Viewport.maximumZoom)).")
        }
        if center != nil, place != nil { throw ValidationError("Give --center or --place, not both.") }
        if graphics != nil, format == .png || accessible.isOn { throw ValidationError("--graphics prints to a terminal: not with --format png or --accessible.") }
        if format == .text, output != nil || size != nil { throw ValidationError("--output and --size are for --format png.") }
        if format == .png, Self.pixelSize(size) == nil {
            throw ValidationError("--size must be WIDTHxHEIGHT in pixels, each 64 to 8192, like 1600x800.")
        }
        if format == .png, output == nil, isatty(STDOUT_FILENO) != 0 {
            throw ValidationError("A PNG is not for a terminal: give --output FILE, or redirect stdout.")
        }
        if let center, MapRendering.coordinate(center) == nil {
            throw ValidationError("--center must be LAT,LON with -90…90 and -180…180, like 37.4,-122.1.")
        }
    }

    func run() async throws {
        let size = MapRendering.size(width: width, height: height)
        // A close view without the detailed map (GSHHG) falls back to Natural Earth: say so.
        if let note = DetailMap.note, zoom >= 16 || place != nil || center != nil {
            FileHandle.standardError.write(Data("onthemap: \(note)\n".utf8))
        }
        let settings = AppSettings.resolve(SettingsFlags(theme: theme?.rawValue))
        // The terminal is not asked here (its answer would come on stdin, mixed with a script's
        // input): auto reads COLORFGBG, else dark.
        let terminalTheme = settings.theme.value.choose(background: nil, environment: ProcessInfo.processInfo.environment).name
        var placeView: ((Int, Int) -> Viewport)?
        if let place {
            do {
                let best = try OfflineGeocoder().resolve(place).best
                let region = MapRegion(
                    minLatitude: best.region.minLatitude, maxLatitude: best.region.maxLatitude,
                    minLongitude: best.region.minLongitude, maxLongitude: best.region.maxLongitude)
                // The same view as the app's posting preview, without the pin's name.
                let renderer = MapRenderer(mode: ascii ? .ascii : .braille)
                placeView = { width, height in
                    PlaceView.viewport(
                        width: width, height: height, latitude: best.latitude, longitude: best.longitude,
                        region: region, isArea: best.precision == .country || best.precision == .region,
                        renderer: renderer, areaMargin: 1)
                }
            } catch {
                throw Self.fail(error.userMessage)
            }
        }
        let list = try await serverOptions.recentLocations(count: 100)
        let point = center.flatMap(MapRendering.coordinate)
        if accessible.isOn {
            let viewport = MapRendering.viewport(
                width: size.width, height: size.height, center: point, zoom: zoom, view: placeView)
            FileHandle.standardOutput.write(Data(AccessibleOutput.map(list.locations, viewport: viewport).utf8))
            return
        }
        if let graphics {
            let cell = GraphicsDetection.cellPixels()
            let rows = max(1, size.height - 1)
            let pixels = (width: min(8192, size.width * cell.width), height: min(8192, rows * cell.height))
            let raster = raster(list.locations, pixels: pixels, center: point, view: placeView, theme: terminalTheme)
            let image: String
            do {
                image = try graphics.encode(raster, columns: size.width, rows: rows, cell: cell)
            } catch {
                throw Self.fail(String(describing: error))
            }
            FileHandle.standardOutput.write(Data((image + "\n").utf8))
            return
        }
        if format == .png, let pixels = Self.pixelSize(self.size) {
            // A file looks the same whatever terminal wrote it: auto is dark.
            let theme = settings.theme.value == .auto ? .dark : terminalTheme
            try writePicture(list.locations, pixels: pixels, center: point, view: placeView, theme: theme)
            return
        }
        let text = MapRendering.render(
            list.locations, width: size.width, height: size.height, center: point, zoom: zoom, view: placeView,
            mode: ascii ? .ascii : .braille,
            theme: color.enabled
                ? MapColoring.theme(terminalTheme, environment: ProcessInfo.processInfo.environment) : nil)
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

extension MapCommand {
    /// The map as a PNG of `pixels`, in the theme's colours (`MapPalette.pixels`): to `--output`
    /// (written whole, then renamed into place), else to stdout.
    func writePicture(
        _ locations: [StudentInformation], pixels: (width: Int, height: Int), center: (latitude: Double, longitude: Double)?,
        view: ((Int, Int) -> Viewport)?, theme: Theme.Name
    ) throws {
        let bytes = try picture(locations, pixels: pixels, center: center, view: view, theme: theme)
        guard let output else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        do {
            try PrivateFile.write(bytes, to: output, replacing: force)
        } catch {
            throw Self.fail(error.description.prefix(1).uppercased() + error.description.dropFirst())
        }
        FileHandle.standardError.write(
            Data("Wrote \(output): \(pixels.width / 2 * 2)×\(pixels.height / 4 * 4) pixels, \(locations.count) locations.\n".utf8))
    }

    /// The map as a PNG of (about) `pixels`: 2×4 pixels a cell of the view.
    func picture(
        _ locations: [StudentInformation], pixels: (width: Int, height: Int), center: (latitude: Double, longitude: Double)?,
        view: ((Int, Int) -> Viewport)?, theme: Theme.Name
    ) throws -> [UInt8] {
        var image = raster(locations, pixels: pixels, center: center, view: view, theme: theme)
        if labels { caption(&image, locations, center: center, view: view, theme: theme) }
        do { return try PNG.encode(image) } catch { throw Self.fail(String(describing: error)) }
    }

    /// The names the map shows at this view (a cell map of the same view at the font's cell
    /// size places them), the title line and the attribution (`PictureCaptions`).
    func caption(
        _ image: inout IndexedImage, _ locations: [StudentInformation], center: (latitude: Double, longitude: Double)?,
        view: ((Int, Int) -> Viewport)?, theme: Theme.Name
    ) {
        let theme = Self.noColor ? .mono : theme
        let cell = PictureCaptions.cell
        let viewport = MapRendering.viewport(
            width: max(1, image.width / cell.width), height: max(1, image.height / cell.height), center: center, zoom: zoom,
            view: view)
        let names = MapRenderer(mode: .braille).render(viewport, pins: MapRendering.pins(locations)).grid
        let date = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withFullDate])
        let classmates = locations.count == 1 ? "1 classmate" : "\(locations.count) classmates"
        // The picture's own view (a pixel a dot, as `raster` draws it) says whether GSHHG is credited.
        let pictureView = MapRendering.viewport(
            width: image.width / 2, height: image.height / 4, center: center, zoom: zoom, view: view)
        PictureCaptions.write(
            title: "On the Map · \(date) · \(classmates)", names: names, onto: &image, theme: theme,
            isDetailed: MapRenderer().detailLevel(for: pictureView) != nil)
    }

    /// The map's pixels, (about) `pixels` of them, in the theme's colours (mono under NO_COLOR).
    func raster(
        _ locations: [StudentInformation], pixels: (width: Int, height: Int), center: (latitude: Double, longitude: Double)?,
        view: ((Int, Int) -> Viewport)?, theme: Theme.Name
    ) -> IndexedImage {
        let viewport = MapRendering.viewport(
            width: pixels.width / 2, height: pixels.height / 4, center: center, zoom: zoom, view: view)
        return PixelMapRenderer().render(
            viewport, pins: MapRendering.pins(locations), palette: MapPalette.pixels(Self.noColor ? .mono : theme))
    }

    static var noColor: Bool { !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty }
}

extension MapColoring.Choice: ExpressibleByArgument {}
