import ArgumentParser
import Foundation
import Geo

/// `onthemap geocode "PLACE"`: where a place is, from the offline gazetteer (or an online service).
struct GeocodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocode",
        abstract: "Find a place's coordinates (offline by default).",
        discussion: """
            Understands "City", "City, ST", "City, Country", countries, aliases (UK, USA, NYC) and \
            street addresses (resolved to their city). Exits 1 with one line when nothing is found.
            """)

    @Argument(help: "The place, for example \"Mountain View, CA\".") var place: String
    @Flag(help: "Print JSON: latitude, longitude, displayName, precision, region, alternatives.") var json = false
    @OptionGroup var geocoderOptions: GeocoderOptions

    func run() async throws {
        let geocoder = try geocoderOptions.makeGeocoder()
        let result: GeocodeResult
        do {
            result = try await geocoder.geocode(place)
        } catch {
            throw Self.fail(error.userMessage)
        }
        if let notice = result.notice {
            Diagnostics.warn(notice)
        }
        let output = json ? try GeocodeOutput.json(result) : GeocodeOutput.text(result)
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
