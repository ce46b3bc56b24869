import Foundation
import Geo
import Launcher
import MapPicture
import OnTheMapModels
import TerminalUI
import Testing
import WorldMap

@testable import onthemap

/// `onthemap geocode` and `onthemap map` as a user runs them (the real binary; the map on the
/// embedded default server with its demo class). One at a time: each run starts a process with
/// the built-in server and draws maps in a debug build, and two dozen at once would starve the
/// timed app tests beside them on 2 cores.
@Suite(.serialized) struct MapAndGeocodeCommandTests {
    /// The binary, waited for without blocking a thread (`ListCommandTests.run`): these tests run
    /// many processes, and blocked pool threads would starve the app tests beside them on 2 cores.
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ListCommandTests.Run {
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        // An 8-colour terminal unless a test says otherwise: the caller's TERM does not matter.
        let terminal = ["TERM": "xterm", "COLORTERM": "", "NO_COLOR": ""]
        return try await ListCommandTests.run(
            arguments, dataHome: home, environment: terminal.merging(environment) { $1 })
    }

    @Test func geocodePrintsCoordinateNameAndPrecision() async throws {
        let result = try await run(["geocode", "Mountain View, CA"])
        #expect(result.status == 0)
        #expect(result.stdout == "37.38605,-122.08385\tMountain View, California, United States\tcity\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func geocodeJSONHasTheIssueShape() async throws {
        let result = try await run(["geocode", "--json", "1600 Amphitheatre Pkwy, Mountain View, CA"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["latitude"] as? Double == 37.38605)
        #expect(object["longitude"] as? Double == -122.08385)
        #expect(object["displayName"] as? String == "Mountain View, California, United States")
        #expect(object["precision"] as? String == "address")
        #expect(object["alternatives"] is [Any])
        #expect(result.stderr == "onthemap: Street address resolved to its city (city-level).\n")
    }

    @Test func geocodeListsAlternatives() async throws {
        let result = try await run(["geocode", "--json", "Springfield"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let alternatives = try #require(object["alternatives"] as? [[String: Any]])
        #expect(alternatives.count >= 3)
        #expect(alternatives.allSatisfy { $0["displayName"] is String && $0["latitude"] is Double })
    }

    @Test(arguments: ["asdfghjkl", "", "\u{1B}[2J\u{07}", String(repeating: "x", count: 10_240)])
    func geocodeNothingFoundIsOneLineAndExitOne(_ place: String) async throws {
        let result = try await run(["geocode", place])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("onthemap: "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func geocodeFallsBackWhenTheOnlineServiceIsDown() async throws {
        let result = try await run(["geocode", "--geocoder", "nominatim", "--geocoder-url", "http://127.0.0.1:9", "Paris"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("48.85341,2.34880\tParis, France\tcity\n"))
        #expect(result.stderr.contains("Nominatim is unreachable; used the offline gazetteer"))
    }

    /// A close view is drawn from the detailed map, and its footer credits GSHHG.
    @Test func aCloseViewCreditsGSHHG() async throws {
        let close = try await run(["map", "--center", "37.81,-122.44", "--zoom", "512", "--width", "80", "--height", "24"])
        #expect(close.status == 0, "\(close.stderr)")
        #expect(close.stdout.hasSuffix("map: GSHHG, Natural Earth, names: GeoNames\n"), "\(close.stdout.suffix(200))")
        let world = try await run(["map", "--width", "80", "--height", "24"])
        #expect(world.stdout.hasSuffix("map: Natural Earth, names: GeoNames\n"))
    }

    @Test func asciiMapOfTheDemoClass() async throws {
        let result = try await run(["map", "--ascii", "--width", "120", "--height", "40"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 40)
        #expect(lines.allSatisfy { $0.count <= 120 }, "\(lines.map(\.count).max() ?? 0) columns")
        #expect(result.stdout.unicodeScalars.allSatisfy { $0.isASCII })
        // The footer, wrapped to the width: counts first, the data's attribution last.
        let footerStart = try #require(lines.lastIndex { $0.hasPrefix("100 locations") })
        #expect(lines.last?.hasSuffix("map: Natural Earth, names: GeoNames") == true)
        #expect(lines.count - footerStart == 2)
        let map = lines[..<footerStart].joined()
        #expect(map.filter { $0 == "." || $0 == ":" }.count > 800)  // land dotted, coasts in colons
        let pinCells = map.filter { $0 == "o" || $0 == "+" || ("2"..."9").contains($0) }.count
        #expect(pinCells > 30)
    }

    /// `--width` and `--height` bound every line printed, the footer's too, at any size the
    /// options take; the footer keeps the counts and the attribution first. The renderer `map`
    /// runs, in this process (a process each would be two dozen built-in servers).
    @Test(arguments: [
        (120, 40, true, nil), (120, 40, false, nil), (78, 18, true, "Bay Area"), (40, 12, false, "France"),
        (30, 7, true, nil), (10, 5, false, nil), (1000, 5, true, nil), (11, 500, false, "Paris"),
    ] as [(Int, Int, Bool, String?)])
    func everyLineFitsTheSize(width: Int, height: Int, ascii: Bool, place: String?) throws {
        var view: ((Int, Int) -> Viewport)?
        if let place {
            let best = try OfflineGeocoder().resolve(place).best
            let region = MapRegion(
                minLatitude: best.region.minLatitude, maxLatitude: best.region.maxLatitude,
                minLongitude: best.region.minLongitude, maxLongitude: best.region.maxLongitude)
            view = { PlaceView.viewport(width: $0, height: $1, latitude: best.latitude, longitude: best.longitude,
                region: region, isArea: best.precision != .city, areaMargin: 1) }
        }
        let locations = (0..<100).map { index in
            StudentInformation(
                objectId: "r\(index)", uniqueKey: "\(index)", firstName: "A", lastName: "B", mapString: "",
                mediaURL: "", latitude: Double(index % 140) - 60, longitude: Double(index * 37 % 360) - 180)
        }
        let text = MapRendering.render(
            locations, width: width, height: height, center: nil, zoom: 1, view: view, mode: ascii ? .ascii : .braille,
            theme: place == "France" ? Theme(.dark, depth: .colors256) : nil)
        let plain = text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        let lines = plain.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= height && lines.count >= min(height, 3), "\(lines.count) lines")
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines.map(\.count).max() ?? 0) columns")
        #expect(lines.contains { $0.hasPrefix("100") })
        if width >= 30 { #expect(plain.contains("names: GeoNames")) }
    }

    @Test func brailleMapDefaultsTo160By48WhenPiped() async throws {
        let result = try await run(["map"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 48)
        #expect(lines.allSatisfy { $0.count <= 160 })
        #expect(result.stdout.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
        #expect(!result.stdout.contains("\u{1B}["))
    }

    @Test func mapErrorsAreOneLine() async throws {
        let stopped = try await run(["map", "--server", "http://127.0.0.1:9"])
        #expect(stopped.status == 1)
        #expect(stopped.stderr.hasPrefix("onthemap: Cannot reach the server"))
        let badCenter = try await run(["map", "--center", "91,0"])
        #expect(badCenter.status != 0)
        #expect(badCenter.stderr.contains("--center must be LAT,LON"))
        let unknownPlace = try await run(["map", "--place", "asdfghjkl"])
        #expect(unknownPlace.status == 1)
        #expect(unknownPlace.stderr == "onthemap: No place found for “asdfghjkl”.\n")
    }

    @Test func aLocationIsDrawnWhereTheProjectionSays() async throws {
        let location = StudentInformation(
            objectId: "mv", uniqueKey: "1", firstName: "A", lastName: "B", mapString: "Mountain View, CA",
            mediaURL: "", latitude: 37.386052, longitude: -122.083851)
        let text = MapRendering.render([location], width: 120, height: 40, center: nil, zoom: 1, mode: .ascii)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == 40)
        // 38 rows of map, then the footer in two lines of at most 120 columns.
        let world = Viewport.world(width: 120, height: 38)
        let cell = try #require(world.cell(latitude: 37.386052, longitude: -122.083851))
        let row = Array(lines[cell.row])
        #expect(row.count > cell.column && row[cell.column] == "o")
        #expect(
            lines[38]
                == "1 location - |----| 2000 km (1243 mi) - centre 12.00N 0.00E - zoom 1.0 - o one pin, 2-9/+ several")
        #expect(lines[39] == "map: Natural Earth, names: GeoNames")
    }

    @Test func theFooterDropsTheLegendBeforeTheAttribution() {
        let parts = ["100 locations", "|--| 50 km", "centre 1N 2E", "zoom 1", "o one pin", "map: Natural Earth"]
        let separator = " - "
        #expect(
            MapRendering.footerLines(parts, droppable: [4, 3, 2, 1], width: 40, maxLines: 3, separator: separator)
                == ["100 locations - |--| 50 km", "centre 1N 2E - zoom 1 - o one pin", "map: Natural Earth"])
        #expect(
            MapRendering.footerLines(parts, droppable: [4, 3, 2, 1], width: 40, maxLines: 1, separator: separator)
                == ["100 locations - map: Natural Earth"])
        // A part longer than a line is broken at spaces, a word longer than a line cut.
        #expect(
            MapRendering.footerLines(["100 locations", "map: Natural Earth"], droppable: [], width: 9, maxLines: 9,
                separator: separator) == ["100", "locations", "map:", "Natural", "Earth"])
        #expect(
            MapRendering.footerLines(["abcdefghijkl"], droppable: [], width: 5, maxLines: 9, separator: separator)
                == ["abcde", "fghij", "kl"])
    }

    // MARK: Names and borders, as the issue asks

    @Test func franceShowsParisAndItsNeighbours() async throws {
        let result = try await run(["map", "--place", "France", "--width", "120", "--height", "40", "--color", "never"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Paris"))
        let neighbours = ["Spain", "Germany", "Italy", "Switzerland", "Belgium", "Luxembourg", "United Kingdom"]
        #expect(neighbours.filter { result.stdout.contains($0) }.count >= 2, "\(result.stdout)")
        // Country borders are drawn in their own colour (white, SGR 37).
        let colored = try await run(["map", "--place", "France", "--width", "120", "--height", "40", "--color", "always"])
        #expect(colored.stdout.contains("\u{1B}[0;37m"))
    }

    /// `map` colours by the theme, as the app does: the flag, the environment or the settings
    /// file, at the terminal's depth; mono keeps the attributes only.
    @Test func theMapFollowsTheTheme() async throws {
        let france = ["map", "--place", "France", "--width", "120", "--height", "40", "--color", "always"]
        // The SGR sequences used (`ESC[…m`), found by splitting: Swift's Regex is slow in a debug
        // build, and these outputs are tens of kilobytes.
        func codes(_ text: String) -> Set<String> {
            Set(text.components(separatedBy: "\u{1B}[").dropFirst().compactMap { part in
                part.firstIndex(of: "m").map { "\u{1B}[" + part[...$0] }
            })
        }
        // The dark theme at 256 colours (what TERM=xterm-256color gives): borders 252, pins 203.
        #expect(MapColoring.theme(.dark, environment: ["TERM": "xterm-256color"]) == Theme(.dark, depth: .colors256))
        #expect(MapColoring.theme(.light, environment: ["TERM": "xterm", "NO_COLOR": "1"]) == Theme(.mono, depth: nil))
        let location = StudentInformation(
            objectId: "p", uniqueKey: "1", firstName: "A", lastName: "B", mapString: "", mediaURL: "",
            latitude: 48.86, longitude: 2.35)
        let dark = MapRendering.render(
            [location], width: 60, height: 20, center: (48.86, 2.35), zoom: 16, mode: .braille,
            theme: Theme(.dark, depth: .colors256))
        #expect(codes(dark).contains("\u{1B}[0;38;5;252m"))
        #expect(codes(dark).contains("\u{1B}[0;1;38;5;203m"))
        // The light theme: borders dark grey (238), never the dark theme's light grey.
        for light in [
            try await run(france + ["--theme", "light"], environment: ["TERM": "xterm-256color"]),
            try await run(france, environment: ["TERM": "xterm-256color", "ONTHEMAP_THEME": "light"]),
        ] {
            #expect(light.status == 0, "\(light.stderr)")
            #expect(codes(light.stdout).contains("\u{1B}[0;38;5;238m"))
            #expect(!light.stdout.contains("38;5;252"))
        }
        // The settings file's theme; mono: bold pins, no colour at all.
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let config = home.appendingPathComponent("config/onthemap")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("theme = \"mono\"\n".utf8).write(to: config.appendingPathComponent("config.toml"))
        let mono = try await ListCommandTests.run(france, dataHome: home, environment: ["TERM": "xterm-256color"])
        #expect(mono.status == 0, "\(mono.stderr)")
        #expect(codes(mono.stdout).contains("\u{1B}[0;1m"))
        #expect(!codes(mono.stdout).contains { $0.contains(";3") })
        #expect(!mono.stdout.contains("38;5"))
        #expect(mono.stdout.contains("France"))
    }

    @Test func bayAreaShowsItsCities() async throws {
        let result = try await run(["map", "--place", "Bay Area", "--width", "120", "--height", "40", "--color", "never"])
        #expect(result.status == 0, "\(result.stderr)")
        let cities = [
            "San Francisco", "Oakland", "San Jose", "Fremont", "Berkeley", "Hayward", "Sunnyvale", "Santa Clara",
            "Daly City", "Concord", "Richmond", "Vallejo", "Santa Rosa", "San Mateo",
        ]
        #expect(cities.filter { result.stdout.contains($0) }.count >= 2, "\(result.stdout)")
    }

    @Test func worldViewNamesTheLargestCountries() async throws {
        let result = try await run(["map", "--width", "160", "--height", "48", "--color", "never"])
        #expect(result.status == 0, "\(result.stderr)")
        let largest = [
            "Russia", "Canada", "United States", "China", "Brazil", "Australia", "India", "Argentina", "Kazakhstan",
            "Algeria",
        ]
        #expect(largest.filter { result.stdout.contains($0) }.count >= 5, "\(result.stdout)")
    }
}

/// `onthemap map --format png`: the class map as a picture a person can open.
@Suite(.serialized) struct MapPictureCommandTests {
    @Test func aPNGOfTheClassMapInTheThemesColours() async throws {
        let folder = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (theme, noColor) in [(Theme.Name.dark, ""), (.light, ""), (.dark, "1")] {
            let file = folder.appendingPathComponent("class-\(theme)-\(noColor).png")
            let result = try await ListCommandTests.run(
                ["map", "--format", "png", "--output", file.path, "--size", "800x400", "--theme", theme.rawValue, "--no-labels"],
                dataHome: folder, environment: ["NO_COLOR": noColor])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("800×400 pixels"))
            let image = try PNG.decode(Array(try Data(contentsOf: file)))
            #expect(image.width == 800 && image.height == 400)
            let palette = MapPalette.pixels(noColor.isEmpty ? theme : .mono)
            let viewport = PixelMapRenderer.viewport(pixelWidth: 800, pixelHeight: 400)
            let atlantic = try #require(viewport.position(latitude: 30, longitude: -40))
            #expect(image.color(x: Int(atlantic.column * 2), y: Int(atlantic.row * 4)) == palette.sea)
            let sahara = try #require(viewport.position(latitude: 23, longitude: 12))
            #expect(image.color(x: Int(sahara.column * 2), y: Int(sahara.row * 4)) == palette.land)
            let pinPixels = stride(from: 0, to: image.pixels.count, by: 4).filter {
                RGB(image.pixels[$0], image.pixels[$0 + 1], image.pixels[$0 + 2]) == palette.pins[PinStyle.normal.rawValue]
            }
            #expect(pinPixels.count > 100, "the demo class's markers are on the picture")
        }
    }

    /// A PNG for a slide says what it is: the names the map shows, a title line at the top left
    /// and the data's attribution at the bottom right, in the theme's ink over a halo; with
    /// `--no-labels`, none of the three.
    @Test func aPNGCarriesTheNamesATitleAndTheAttribution() async throws {
        let folder = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func picture(_ extra: [String]) async throws -> RGBAImage {
            let file = folder.appendingPathComponent("slide-\(extra.count).png")
            let result = try await ListCommandTests.run(
                ["map", "--format", "png", "--output", file.path, "--size", "1200x600", "--theme", "dark"] + extra,
                dataHome: folder, environment: ["NO_COLOR": ""])
            #expect(result.status == 0, "\(result.stderr)")
            return try PNG.decode(Array(try Data(contentsOf: file)))
        }
        let labelled = try await picture([])
        let plain = try await picture(["--no-labels"])
        let ink = RGB(240, 240, 240)
        func inkPixels(_ image: RGBAImage, x: Range<Int>, y: Range<Int>) -> Int {
            y.reduce(0) { sum, row in sum + x.filter { image.color(x: $0, y: row) == ink }.count }
        }
        // The title, twice the font's 8×16 at 600 pixels high: "On the Map · date · N classmates".
        #expect(inkPixels(labelled, x: 8..<600, y: 8..<40) > 500, "a title line")
        #expect(inkPixels(labelled, x: 900..<1196, y: 576..<596) > 150, "the attribution")
        #expect(inkPixels(plain, x: 0..<1200, y: 0..<600) == 0, "--no-labels: neither")
        // The names: more pixels differ than the title and the attribution alone make.
        var differing = 0
        for y in 48..<570 {
            for x in 0..<1200 where labelled.color(x: x, y: y) != plain.color(x: x, y: y) { differing += 1 }
        }
        #expect(differing > 2000, "the places' names on the map (\(differing) pixels)")
    }

    /// `--output` writes a new file of mode 0600; an existing one is replaced only with --force.
    @Test func aPNGNeverOverwritesWithoutForce() async throws {
        let folder = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("class.png").path
        try Data("a slide I made".utf8).write(to: URL(fileURLWithPath: file))
        let arguments = ["map", "--format", "png", "--output", file, "--size", "200x100"]
        let refused = try await ListCommandTests.run(arguments, dataHome: folder)
        #expect(refused.status != 0 && refused.stderr.contains("already exists: give --force"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "a slide I made")
        let forced = try await ListCommandTests.run(arguments + ["--force"], dataHome: folder)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try PNG.decode(Array(try Data(contentsOf: URL(fileURLWithPath: file)))).width == 200)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    /// `--graphics kitty|iterm`: the same picture inline, sized to the cells (10×20 pixels a cell
    /// off a terminal), and its payload the PNG: looked at after decoding it.
    @Test(arguments: ["kitty", "iterm"]) func anInlineImageForATerminalThatShowsThem(protocolName: String) async throws {
        let folder = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await ListCommandTests.run(
            ["map", "--graphics", protocolName, "--width", "80", "--height", "21"], dataHome: folder, environment: ["NO_COLOR": ""])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout.trimmingCharacters(in: .newlines)
        #expect(text.hasPrefix(protocolName == "kitty" ? "\u{1B}_Ga=T,f=100,t=d,i=1,q=2,c=80,r=20," : "\u{1B}]1337;File=inline=1;"))
        let png = try #require(TerminalImage.payload(of: text))
        let image = try PNG.decode(png)
        #expect(image.width == 800 && image.height == 400)
        let palette = MapPalette.pixels(.dark)
        let viewport = PixelMapRenderer.viewport(pixelWidth: 800, pixelHeight: 400)
        let atlantic = try #require(viewport.position(latitude: 30, longitude: -40))
        #expect(image.color(x: Int(atlantic.column * 2), y: Int(atlantic.row * 4)) == palette.sea)
        if protocolName == "kitty" {
            let chunks = text.components(separatedBy: "\u{1B}\\").filter { !$0.isEmpty }
            #expect(chunks.count > 1, "a picture this size takes several chunks")
            #expect(chunks.dropLast().allSatisfy { $0.contains("m=1;") } && chunks.last?.contains("m=0;") == true)
            #expect(chunks.allSatisfy { $0.count <= 4096 + 64 })
        }
    }

    /// `--graphics sixel`: decoded back with libsixel's `sixel2png` (`make test` installs
    /// libsixel-bin) and looked at: the theme's own colours, within a step of Sixel's percent
    /// palette.
    @Test func aSixelPictureDecodesToTheMap() async throws {
        let folder = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await ListCommandTests.run(
            ["map", "--graphics", "sixel", "--width", "80", "--height", "21"], dataHome: folder, environment: ["NO_COLOR": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\u{1B}P"), "a DCS: Sixel")
        let sixel = folder.appendingPathComponent("map.six")
        let png = folder.appendingPathComponent("map.png")
        try Data(result.stdout.utf8).write(to: sixel)
        let decode = try await LaunchedProcess.run(
            URL(fileURLWithPath: "/usr/bin/sixel2png"), ["-i", sixel.path, "-o", png.path])
        #expect(decode.status == 0, "\(decode.stderr)")
        let image = try PNG.decode(Array(try Data(contentsOf: png)))
        #expect(image.width == 800 && image.height >= 390 && image.height <= 400, "\(image.width)×\(image.height)")
        let palette = MapPalette.pixels(.dark)
        let viewport = PixelMapRenderer.viewport(pixelWidth: 800, pixelHeight: 400)
        func near(_ a: RGB?, _ b: RGB) -> Bool {
            guard let a else { return false }
            return abs(Int(a.red) - Int(b.red)) <= 2 && abs(Int(a.green) - Int(b.green)) <= 2 && abs(Int(a.blue) - Int(b.blue)) <= 2
        }
        for (latitude, longitude, expected, place) in [(30.0, -40.0, palette.sea, "mid-Atlantic"), (23, 12, palette.land, "Sahara")] {
            let p = try #require(viewport.position(latitude: latitude, longitude: longitude))
            let seen = image.color(x: Int(p.column * 2), y: Int(p.row * 4))
            #expect(near(seen, expected), "\(place): \(String(describing: seen)) for \(expected)")
        }
    }

    @Test func refusals() async throws {
        let folder = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [
            ["map", "--format", "png", "--size", "10x10", "--output", "x.png"], ["map", "--output", "x.png"],
            ["map", "--format", "png", "--size", "9000x100", "--output", "x.png"],
        ] {
            let result = try await ListCommandTests.run(arguments, dataHome: folder)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.split(separator: "\n").first?.hasPrefix("Error: --") == true, "\(result.stderr)")
        }
    }
}
