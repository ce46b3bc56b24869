// onthemap-bench: timings and memory of the map engine, the offline geocoder and "Go to"'s completions.
// Run release-built through `make bench` (RELEASE_FLAGS). Exits 1 when a figure is over budget.
import Foundation
import Geo
import MapPicture
import OnTheMapModels
import TerminalUI
import ViewModels
import WorldMap

/// Milliseconds of the median run.
func medianMilliseconds(runs: Int, _ body: () -> Int) -> (median: Double, checksum: Int) {
    var samples: [Double] = []
    var checksum = 0
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let start = clock.now
        checksum &+= body()
        let elapsed = clock.now - start
        samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    samples.sort()
    return (samples[samples.count / 2], checksum)
}

/// Resident set size in kilobytes, from /proc/self/status.
func residentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}

func pins(_ count: Int) -> [MapPin] {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53)
    }
    return (0..<count).map { i in
        MapPin(
            id: "pin-\(i)", latitude: next() * 140 - 60, longitude: next() * 360 - 180,
            style: i == 0 ? .selected : .normal, label: i == 0 ? "Ada Lovelace" : nil)
    }
}

struct Figure {
    let name: String
    let value: Double
    let unit: String
    let budget: Double
    var ok: Bool { value <= budget }
}

var figures: [Figure] = []
let baseline = residentKilobytes()

// Loading: first use of the land data and the gazetteer (what the app pays once).
let clock = ContinuousClock()
let loadStart = clock.now
let coarse = LandRings.coarse
let detailed = LandRings.detailed
let borderVertices =
    MapLines.coarseBorders.vertexCount + MapLines.detailedBorders.vertexCount + MapLines.admin1.vertexCount
let labelCount = PlaceLabels.countries.count + PlaceLabels.cities.count
let landLoad = clock.now - loadStart
let gazetteerStart = clock.now
let shared = Gazetteer.shared
let gazetteerFirstLoad = clock.now - gazetteerStart
let geocoder = OfflineGeocoder(gazetteer: shared)
let queries = [
    "Mountain View, CA", "Paris", "London, UK", "NYC", "São Paulo", "Muenchen", "Costa Rica",
    "1600 Amphitheatre Pkwy, Mountain View, CA", "Springfield", "Cambridge, MA", "Tokyo", "asdfghjkl",
]
for query in queries { _ = try? geocoder.resolve(query) }

// Borders and names are on (MapRenderer's default); the first frames build the label indexes.
let world = Viewport.world(width: 200, height: 60)
let renderer = MapRenderer(mode: .braille)
let city = Viewport(width: 200, height: 60, centerLatitude: 48.86, centerLongitude: 2.35, zoom: 256)
_ = renderer.render(world, pins: pins(100))
_ = renderer.render(city, pins: pins(100))
let resident = residentKilobytes() - baseline
let hundred = pins(100)
let frame100 = medianMilliseconds(runs: 300) { renderer.render(world, pins: hundred).grid.cells.count }
let many = pins(100_000)
let frame100k = medianMilliseconds(runs: 40) { renderer.render(world, pins: many).grid.cells.count }
let bay = Viewport(width: 200, height: 60, centerLatitude: 37.6, centerLongitude: -122.2, zoom: 120)
let frameBay = medianMilliseconds(runs: 100) { renderer.render(bay, pins: hundred).grid.cells.count }
let frameCity = medianMilliseconds(runs: 100) { renderer.render(city, pins: hundred).grid.cells.count }
let geocode = medianMilliseconds(runs: 200) {
    var found = 0
    for query in queries { if (try? geocoder.resolve(query)) != nil { found += 1 } }
    return found
}
let load = medianMilliseconds(runs: 20) { Gazetteer().cityCount }

// Pictures: a 200×60-cell frame at 10×20-pixel cells (2,000×1,200 px), rasterised, then as a PNG.
let pixels = PixelMapRenderer()
let palette = MapPalette.pixels(.dark)
let pictureWorld = PixelMapRenderer.viewport(pixelWidth: 2000, pixelHeight: 1200)
var pictureCity = pictureWorld
pictureCity.setZoom(256)
pictureCity.center(latitude: 48.86, longitude: 2.35)
let rasterWorld = medianMilliseconds(runs: 30) { pixels.render(pictureWorld, pins: hundred, palette: palette).indexes.count }
let rasterCity = medianMilliseconds(runs: 30) { pixels.render(pictureCity, pins: hundred, palette: palette).indexes.count }
// The cells of the same view: the layers both share, plus names (what a picture's raster builds on).
let layersCity = medianMilliseconds(runs: 30) { renderer.render(pictureCity).grid.cells.count }
let worldImage = pixels.render(pictureWorld, pins: hundred, palette: palette)
let encodePNG = medianMilliseconds(runs: 10) { (try? PNG.encode(worldImage))?.count ?? 0 }
// The app's frame as the terminal gets it: the picture rasterised and encoded for the protocol
// (Kitty: a palette PNG in base64 chunks; Sixel: the palette's bands), over 200×60 cells.
func terminalFrame(_ view: Viewport, _ imageProtocol: ImageProtocol) -> Int {
    let image = pixels.render(view, pins: hundred, palette: palette)
    return (try? imageProtocol.encode(image, columns: 200, rows: 60, cell: (10, 20), underText: true))?.utf8.count ?? 0
}
let kittyWorld = medianMilliseconds(runs: 10) { terminalFrame(pictureWorld, .kitty) }
let kittyCity = medianMilliseconds(runs: 10) { terminalFrame(pictureCity, .kitty) }
let sixelWorld = medianMilliseconds(runs: 10) { terminalFrame(pictureWorld, .sixel) }
let sixelCity = medianMilliseconds(runs: 10) { terminalFrame(pictureCity, .sixel) }
// The detailed map (GSHHG/WDBII, `DetailMap`) at city zoom over a coast and over a lake: the
// first frame of a place whose tiles are not decoded yet (a map of its own with an empty tile
// cache, the file's pages dropped from the page cache first: a jump with "Go to" after a
// start), then the same frame again (median, tiles cached), in Braille and as a Kitty frame.
let detailPath = DetailMap.shared?.path
let detailPlaces: [(name: String, latitude: Double, longitude: Double)] = [
    ("San Francisco", 37.79, -122.42), ("Istanbul", 41.03, 29.0), ("Geneva", 46.3, 6.35),
]
let detailZoom = 512.0
var detailFigures: [(place: String, brailleFirst: Double, braille: Double, kittyFirst: Double, kitty: Double)] = []
func dropFromPageCache(_ path: String) {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return }
    _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
    close(descriptor)
}
if let detailPath {
    for place in detailPlaces {
        let view = Viewport(
            width: 200, height: 60, centerLatitude: place.latitude, centerLongitude: place.longitude, zoom: detailZoom)
        var picture = PixelMapRenderer.viewport(pixelWidth: 2000, pixelHeight: 1200)
        picture.setZoom(detailZoom)
        picture.center(latitude: place.latitude, longitude: place.longitude)
        func firstAndCached(_ draw: @escaping (MapRenderer) -> Int) -> (first: Double, cached: Double) {
            dropFromPageCache(detailPath)
            guard let map = try? DetailMap(path: detailPath) else { return (.nan, .nan) }
            let renderer = MapRenderer(mode: .braille, detailMap: map)
            let first = medianMilliseconds(runs: 1) { draw(renderer) }
            let cached = medianMilliseconds(runs: 20) { draw(renderer) }
            return (first.median, cached.median)
        }
        let braille = firstAndCached { $0.render(view, pins: hundred).grid.cells.count }
        let kitty = firstAndCached { renderer in
            let image = PixelMapRenderer(renderer: renderer).render(picture, pins: hundred, palette: palette)
            return (try? ImageProtocol.kitty.encode(image, columns: 200, rows: 60, cell: (10, 20), underText: true))?.utf8.count ?? 0
        }
        detailFigures.append((place.name, braille.first, braille.cached, kitty.first, kitty.cached))
    }
}

// "Go to": the completions each keystroke asks for (GoToPrompt.complete: the gazetteer and a
// class of 1,000), typing a city, an accented city, a country, a classmate and a typo; the
// figure is the slowest keystroke's median.
let classmates = (0..<1000).map { index in
    StudentInformation(
        objectId: "o\(index)", uniqueKey: "k\(index)", firstName: ["Ada", "José", "Grace", "Alan", "Mei"][index % 5],
        lastName: "Student \(index)", mapString: ["Lisbon, Portugal", "São Paulo", "Oslo", "Austin, TX"][index % 4],
        mediaURL: "", latitude: Double(index % 160) - 80, longitude: Double(index % 340) - 170)
}
let typed = ["Lisbon", "São Paulo", "united kingdom", "ada student 99", "lisbn"].flatMap { word in
    (1...word.count).map { String(word.prefix($0)) }
}
let folded = GoToClass(classmates)
var slowestKeystroke = (median: 0.0, checksum: 0)
for prefix in typed {
    let timing = medianMilliseconds(runs: 20) { GoToPrompt.complete(prefix, in: folded).count }
    if timing.median > slowestKeystroke.median { slowestKeystroke = timing }
}

func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }

figures.append(
    Figure(name: "200x60 Braille world frame, 100 pins (median)", value: frame100.median, unit: "ms", budget: 2))
figures.append(
    Figure(name: "200x60 Braille world frame, 100,000 pins (median)", value: frame100k.median, unit: "ms", budget: 20))
figures.append(
    Figure(
        name: "200x60 Braille SF Bay frame (1:50m), 100 pins (median)", value: frameBay.median, unit: "ms", budget: 5))
figures.append(
    Figure(
        name: "200x60 Braille city frame (Paris, zoom 256), 100 pins (median)", value: frameCity.median, unit: "ms",
        budget: 5))
figures.append(
    Figure(name: "2000x1200 px world picture rasterised, 100 pins (median)", value: rasterWorld.median, unit: "ms", budget: 40))
figures.append(
    Figure(name: "2000x1200 px city picture (Paris, zoom 256) rasterised (median)", value: rasterCity.median, unit: "ms", budget: 40))
print("(1000x300-cell Braille frame of the same city view: \(String(format: "%.1f", layersCity.median)) ms)")
figures.append(
    Figure(name: "2000x1200 px world picture as PNG, libpng (median of 10)", value: encodePNG.median, unit: "ms", budget: 120))
figures.append(
    Figure(name: "200x60-cell Kitty world frame, rasterised and encoded (median of 10)", value: kittyWorld.median, unit: "ms", budget: 16))
figures.append(
    Figure(name: "200x60-cell Kitty city frame (Paris), rasterised and encoded (median of 10)", value: kittyCity.median, unit: "ms", budget: 16))
figures.append(
    Figure(name: "200x60-cell Sixel world frame, rasterised and encoded (median of 10)", value: sixelWorld.median, unit: "ms", budget: 40))
figures.append(
    Figure(name: "200x60-cell Sixel city frame (Paris), rasterised and encoded (median of 10)", value: sixelCity.median, unit: "ms", budget: 40))
for detail in detailFigures {
    let place = "\(detail.place), zoom \(Int(detailZoom)), detailed map"
    figures.append(
        Figure(name: "200x60 Braille city frame (\(place)), first: tiles not cached", value: detail.brailleFirst, unit: "ms", budget: 50))
    figures.append(Figure(name: "200x60 Braille city frame (\(place)) (median)", value: detail.braille, unit: "ms", budget: 5))
    figures.append(
        Figure(name: "200x60-cell Kitty city frame (\(place)), first: tiles not cached", value: detail.kittyFirst, unit: "ms", budget: 50))
    figures.append(Figure(name: "200x60-cell Kitty city frame (\(place)) (median of 20)", value: detail.kitty, unit: "ms", budget: 16))
}
if detailPath == nil { print("(no detailed map found: \(DetailMap.note ?? ""))") }
figures.append(
    Figure(
        name: "one offline geocode (median of \(queries.count) mixed queries)",
        value: geocode.median / Double(queries.count), unit: "ms", budget: 1))
figures.append(
    Figure(
        name: "Go to completions, slowest of \(typed.count) keystrokes (median of 20 each)",
        value: slowestKeystroke.median, unit: "ms", budget: 5))
figures.append(Figure(name: "gazetteer load (median of 20)", value: load.median, unit: "ms", budget: 50))
figures.append(Figure(name: "gazetteer first load (one run)", value: ms(gazetteerFirstLoad), unit: "ms", budget: 50))
figures.append(
    Figure(name: "map data decode: land, borders, labels (one run)", value: ms(landLoad), unit: "ms", budget: 50))
figures.append(
    Figure(name: "map data + gazetteer resident memory", value: Double(resident) / 1024, unit: "MB", budget: 15))

print("| figure | value | budget | |")
print("|---|---:|---:|---|")
for f in figures {
    print(
        "| \(f.name) | \(String(format: "%.3f", f.value)) \(f.unit) | ≤ \(f.budget.formatted()) \(f.unit) | \(f.ok ? "ok" : "OVER") |"
    )
}
print(
    "(land: \(coarse.vertexCount) + \(detailed.vertexCount) vertices; borders: \(borderVertices) vertices; labels: \(labelCount); gazetteer: \(shared.cityCount) cities; checksums \(frame100.checksum &+ frame100k.checksum &+ frameBay.checksum &+ frameCity.checksum &+ geocode.checksum &+ load.checksum))"
)
exit(figures.allSatisfy(\.ok) ? 0 : 1)
