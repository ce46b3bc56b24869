import APIClient
import ArgumentParser
import Foundation
import Geo
import OnTheMapConfig
import OnTheMapModels
import SafeText
import TerminalUI
import ViewModels

#if canImport(Glibc)
    import Glibc
#endif

/// `onthemap post`: geocodes a place (offline unless `--geocoder` says otherwise), coarsens it to
/// the chosen precision, shows it, asks, then posts your row — or overwrites the one you have,
/// saying so.
struct PostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Post where you study (or overwrite your row) with the stored session.",
        discussion: """
            Exit status: 0 posted, 1 failure (place not found, server unreachable), 3 not logged in \
            or the session expired, 4 refused (a link that is not http(s), or the question answered no \
            or not asked: without a terminal, pass --yes).
            """)

    @OptionGroup var serverOptions: ServerOptions
    @OptionGroup var geocoderOptions: GeocoderOptions
    @Option(help: "Where you study, for example \"Lisbon, Portugal\".") var place: String
    @Option(help: "The link to share (http or https; https:// is added when missing).") var link: String
    @Option(help: "city (the default: a street address is rounded to about 1 km) or exact.") var precision: Precision?
    @Flag(name: .shortAndLong, help: "Post without asking.") var yes = false
    @Flag(help: "Print the posted row as JSON.") var json = false
    @OptionGroup var accessible: AccessibleOption

    func run() async throws {
        let stored = try serverOptions.storedSession()
        let mediaURL: String
        switch LinkPolicy.decide(link) {
        case .open(let url): mediaURL = url
        case .refuse(let reason): throw ExitFailure(.refused, reason)
        }
        let mapString = place.trimmingCharacters(in: .whitespaces)
        let geocoder = try geocoderOptions.makeGeocoder()
        let result: GeocodeResult
        do {
            result = try await geocoder.geocode(mapString)
        } catch {
            throw ExitFailure(.failure, error.userMessage)
        }
        // The flag, ONTHEMAP_PRECISION or the settings file; city by default.
        let effective = AppSettings.resolve(SettingsFlags(precision: precision?.rawValue)).precision.value
        let chosen = Precision(rawValue: effective) ?? .city
        let best = chosen.coarsen(result.best)
        let summary = String(
            format: "%@ (%.4f, %.4f) → %@", SafeText.clean(best.displayName), best.latitude, best.longitude, mediaURL)
        Diagnostics.note("Place: \(summary)")
        Diagnostics.note("Precision: \(chosen.rawValue), \(chosen.statement) (--precision city|exact).")
        if !yes {
            Self.printPreview(of: best)
            try confirm()
        }
        let connection = try await serverOptions.connect(resuming: stored)
        let outcome: Result<(objectId: String, overwrote: Bool), APIError>
        do throws(APIError) {
            let existing = try await connection.client.locations(ofUser: stored.accountKey).first
            let user = try await connection.client.publicUser(key: stored.accountKey)
            let row = NewStudentLocation(
                uniqueKey: stored.accountKey, firstName: user.firstName, lastName: user.lastName, mapString: mapString,
                mediaURL: mediaURL, latitude: best.latitude, longitude: best.longitude)
            if let existing {
                _ = try await connection.client.updateLocation(objectId: existing.objectId, with: row)
                outcome = .success((existing.objectId, true))
            } else {
                outcome = .success((try await connection.client.createLocation(row).objectId, false))
            }
        } catch {
            outcome = .failure(error)
        }
        await connection.close()
        let posted = try outcome.mapError { ExitFailure.from($0, server: serverOptions.serverLabel) }.get()
        if json {
            print(try Self.json(objectId: posted.objectId, overwrote: posted.overwrote, place: best, link: mediaURL))
        } else {
            let verb = posted.overwrote ? "Overwrote your existing row" : "Posted"
            if accessible.isOn {
                // Said aloud: no arrow, coordinates rounded, the id last.
                print(
                    String(
                        format: "%@: %@, at %.2f, %.2f, with the link %@. Row %@.", verb,
                        SafeText.clean(best.displayName), best.latitude, best.longitude, mediaURL,
                        SafeText.clean(posted.objectId)))
            } else {
                print("\(verb) \(SafeText.clean(posted.objectId)): \(summary)")
            }
        }
    }

    /// The app's posting preview map of the place (`PostingScreen.placeMap`, at its size), on
    /// stderr like the question: coloured by the theme when stderr is a terminal.
    private static func printPreview(of place: Placemark) {
        let settings = AppSettings.resolve(SettingsFlags())
        let size = PostingScreen.previewMapSize
        let grid = PostingScreen.placeMap(place, width: size.width, height: size.height, ascii: settings.ascii.value)
        let environment = ProcessInfo.processInfo.environment
        let lines =
            MapColoring.Choice.auto.enabled(on: STDERR_FILENO)
            ? MapColoring.lines(
                grid, theme: MapColoring.theme(settings.theme.value.choose(background: nil, environment: environment).name, environment: environment))
            : grid.lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Asks on the terminal; without one (a script) refuses, so nothing is posted unseen.
    private func confirm() throws {
        guard isatty(STDIN_FILENO) == 1 else {
            throw ExitFailure(.refused, "not posted: no terminal to ask on; pass --yes to post without asking.")
        }
        Diagnostics.note("Post this? [y/N] ", newline: false)
        let answer = (readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else { throw ExitFailure(.refused, "not posted.") }
    }

    private struct Output: Encodable {
        var objectId: String
        var overwrote: Bool
        var displayName: String
        var latitude: Double
        var longitude: Double
        var mediaURL: String
    }

    private static func json(objectId: String, overwrote: Bool, place: Placemark, link: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let output = Output(
            objectId: SafeText.clean(objectId), overwrote: overwrote, displayName: SafeText.clean(place.displayName),
            latitude: place.latitude, longitude: place.longitude, mediaURL: link)
        return String(decoding: try encoder.encode(output), as: UTF8.self)
    }
}

extension Precision: ExpressibleByArgument {}
