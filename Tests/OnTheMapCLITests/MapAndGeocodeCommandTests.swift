import Foundation
import Geo
import OnTheMapModels
import Testing
import WorldMap

@testable import onthemap

/// `onthemap geocode` and `onthemap map` as a user runs them (the real binary; the map on the
/// embedded default server with its demo class).
@Suite struct MapAndGeocodeCommandTests {
    func run(_ arguments: [String]) throws -> ListCommandTests.Run {
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        return try ListCommandTests.run(arguments, dataHome: home)
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
        #expect(lines.count == 41)
        #expect(lines.dropLast().allSatisfy { $0.count <= 120 })
        #expect(result.stdout.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(lines.last?.hasPrefix("100 locations") == true)
        let map = lines.dropLast().joined()
        #expect(map.filter { $0 == "." || $0 == ":" }.count > 800)  // land dotted, coasts in colons
        let pinCells = map.filter { $0 == "o" || $0 == "+" || ("2"..."9").contains($0) }.count
        #expect(pinCells > 30)
    }

    @Test func brailleMapDefaultsTo160By48WhenPiped() throws {
        let result = try run(["map"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 49)
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
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let cell = try #require(Viewport.world(width: 120, height: 40).cell(latitude: 37.386052, longitude: -122.083851))
        let row = Array(lines[cell.row])
        #expect(row.count > cell.column && row[cell.column] == "o")
        #expect(
            lines[40]
                == "1 location - |----| 2000 km (1243 mi) - centre 12.00N 0.00E - zoom 1.0 - o one pin, 2-9/+ several"
                + " - map: Natural Earth, names: GeoNames"
        )
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
