import Foundation
import Geo
import OnTheMapModels
import Testing
import WorldMap

@testable import onthemap

/// `onthemap geocode` and `onthemap map` as a user runs them (the real binary; the map on the
/// embedded default server with its demo class).
@Suite struct MapAndGeocodeCommandTests {
    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> ListCommandTests.Run {
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        // An 8-colour terminal unless a test says otherwise: the caller's TERM does not matter.
        let terminal = ["TERM": "xterm", "COLORTERM": "", "NO_COLOR": ""]
        return try ListCommandTests.run(arguments, dataHome: home, environment: terminal.merging(environment) { $1 })
    }

    @Test func geocodePrintsCoordinateNameAndPrecision() throws {
        let result = try run(["geocode", "Mountain View, CA"])
        #expect(result.status == 0)
        #expect(result.stdout == "37.38605,-122.08385\tMountain View, California, United States\tcity\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func geocodeJSONHasTheIssueShape() throws {
        let result = try run(["geocode", "--json", "1600 Amphitheatre Pkwy, Mountain View, CA"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["latitude"] as? Double == 37.38605)
        #expect(object["longitude"] as? Double == -122.08385)
        #expect(object["displayName"] as? String == "Mountain View, California, United States")
        #expect(object["precision"] as? String == "address")
        #expect(object["alternatives"] is [Any])
        #expect(result.stderr == "onthemap: Street address resolved to its city (city-level).\n")
    }

    @Test func geocodeListsAlternatives() throws {
        let result = try run(["geocode", "--json", "Springfield"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let alternatives = try #require(object["alternatives"] as? [[String: Any]])
        #expect(alternatives.count >= 3)
        #expect(alternatives.allSatisfy { $0["displayName"] is String && $0["latitude"] is Double })
    }

    @Test(arguments: ["asdfghjkl", "", "\u{1B}[2J\u{07}", String(repeating: "x", count: 10_240)])
    func geocodeNothingFoundIsOneLineAndExitOne(_ place: String) throws {
        let result = try run(["geocode", place])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("onthemap: "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func geocodeFallsBackWhenTheOnlineServiceIsDown() throws {
        let result = try run(["geocode", "--geocoder", "nominatim", "--geocoder-url", "http://127.0.0.1:9", "Paris"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("48.85341,2.34880\tParis, France\tcity\n"))
        #expect(result.stderr.contains("Nominatim is unreachable; used the offline gazetteer"))
    }

    @Test func asciiMapOfTheDemoClass() throws {
        let result = try run(["map", "--ascii", "--width", "120", "--height", "40"])
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
    /// options take; the footer keeps the counts and the attribution first.
    @Test(arguments: [
        ["--ascii", "--width", "120", "--height", "40"], ["--width", "120", "--height", "40"],
        ["--ascii", "--width", "78", "--height", "18", "--place", "Bay Area"],
        ["--width", "40", "--height", "12", "--place", "France", "--color", "always"],
        ["--ascii", "--width", "30", "--height", "7"], ["--width", "10", "--height", "5"],
        ["--ascii", "--width", "1000", "--height", "5", "--zoom", "4096", "--center", "0,0"],
    ])
    func everyLineFitsTheSize(_ options: [String]) throws {
        let result = try run(["map"] + options)
        #expect(result.status == 0, "\(result.stderr)")
        let width = Int(options[options.firstIndex(of: "--width")! + 1])!
        let height = Int(options[options.firstIndex(of: "--height")! + 1])!
        let plain = result.stdout.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        let lines = plain.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= height && lines.count >= min(height, 3), "\(lines.count) lines")
        #expect(lines.allSatisfy { $0.count <= width }, "\(lines.map(\.count).max() ?? 0) columns")
        #expect(lines.contains { $0.hasPrefix("100") })
        if width >= 30 { #expect(plain.contains("names: GeoNames")) }
    }

    @Test func brailleMapDefaultsTo160By48WhenPiped() throws {
        let result = try run(["map"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 48)
        #expect(lines.allSatisfy { $0.count <= 160 })
        #expect(result.stdout.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
        #expect(!result.stdout.contains("\u{1B}["))
    }

    @Test func mapErrorsAreOneLine() throws {
        let stopped = try run(["map", "--server", "http://127.0.0.1:9"])
        #expect(stopped.status == 1)
        #expect(stopped.stderr.hasPrefix("onthemap: Cannot reach the server"))
        let badCenter = try run(["map", "--center", "91,0"])
        #expect(badCenter.status != 0)
        #expect(badCenter.stderr.contains("--center must be LAT,LON"))
        let unknownPlace = try run(["map", "--place", "asdfghjkl"])
        #expect(unknownPlace.status == 1)
        #expect(unknownPlace.stderr == "onthemap: No place found for “asdfghjkl”.\n")
    }

    @Test func aLocationIsDrawnWhereTheProjectionSays() throws {
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

    @Test func franceShowsParisAndItsNeighbours() throws {
        let result = try run(["map", "--place", "France", "--width", "120", "--height", "40", "--color", "never"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Paris"))
        let neighbours = ["Spain", "Germany", "Italy", "Switzerland", "Belgium", "Luxembourg", "United Kingdom"]
        #expect(neighbours.filter { result.stdout.contains($0) }.count >= 2, "\(result.stdout)")
        // Country borders are drawn in their own colour (white, SGR 37).
        let colored = try run(["map", "--place", "France", "--width", "120", "--height", "40", "--color", "always"])
        #expect(colored.stdout.contains("\u{1B}[0;37m"))
    }

    /// `map` colours by the theme, as the app does: the flag, the environment or the settings
    /// file, at the terminal's depth; mono keeps the attributes only.
    @Test func theMapFollowsTheTheme() throws {
        let france = ["map", "--place", "France", "--width", "120", "--height", "40", "--color", "always"]
        let sgr = #"\u{1B}\[[0-9;]*m"#
        func codes(_ text: String) -> Set<String> {
            Set(text.matches(of: try! Regex(sgr)).map { String(text[$0.range]) })
        }
        // The dark theme at 256 colours: borders 252, pins 203 (ThemePalette).
        let dark = try run(france, environment: ["TERM": "xterm-256color"])
        #expect(codes(dark.stdout).contains("\u{1B}[0;38;5;252m"))
        #expect(codes(dark.stdout).contains("\u{1B}[0;1;38;5;203m"))
        // The light theme: borders dark grey (238), never the dark theme's light grey.
        for light in [
            try run(france + ["--theme", "light"], environment: ["TERM": "xterm-256color"]),
            try run(france, environment: ["TERM": "xterm-256color", "ONTHEMAP_THEME": "light"]),
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
        let mono = try ListCommandTests.run(france, dataHome: home, environment: ["TERM": "xterm-256color"])
        #expect(mono.status == 0, "\(mono.stderr)")
        #expect(codes(mono.stdout).contains("\u{1B}[0;1m"))
        #expect(!codes(mono.stdout).contains { $0.contains(";3") })
        #expect(!mono.stdout.contains("38;5"))
        #expect(mono.stdout.contains("France"))
    }

    @Test func bayAreaShowsItsCities() throws {
        let result = try run(["map", "--place", "Bay Area", "--width", "120", "--height", "40", "--color", "never"])
        #expect(result.status == 0, "\(result.stderr)")
        let cities = [
            "San Francisco", "Oakland", "San Jose", "Fremont", "Berkeley", "Hayward", "Sunnyvale", "Santa Clara",
            "Daly City", "Concord", "Richmond", "Vallejo", "Santa Rosa", "San Mateo",
        ]
        #expect(cities.filter { result.stdout.contains($0) }.count >= 2, "\(result.stdout)")
    }

    @Test func worldViewNamesTheLargestCountries() throws {
        let result = try run(["map", "--width", "160", "--height", "48", "--color", "never"])
        #expect(result.status == 0, "\(result.stderr)")
        let largest = [
            "Russia", "Canada", "United States", "China", "Brazil", "Australia", "India", "Argentina", "Kazakhstan",
            "Algeria",
        ]
        #expect(largest.filter { result.stdout.contains($0) }.count >= 5, "\(result.stdout)")
    }
}
