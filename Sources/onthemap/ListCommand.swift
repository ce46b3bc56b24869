import APIClient
import ArgumentParser
import Foundation
import OnTheMapModels
import SafeText

/// `onthemap list`: the most recent locations, newest first, as a table, JSON or CSV.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the most recent locations, newest first.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json, csv }

    @OptionGroup var serverOptions: ServerOptions
    @Option(help: "How many locations.") var limit = 100
    @Option(help: "table, json or csv.") var format: Format = .table
    @Flag(
        inversion: .prefixedNo,
        help: "Links as OSC 8 hyperlinks in the table (default: off; on with --hyperlinks even when piped).")
    var hyperlinks: Bool?
    @OptionGroup var accessible: AccessibleOption

    func validate() throws {
        guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 10000.") }
    }

    func run() async throws {
        let list = try await serverOptions.recentLocations(count: limit)
        if list.skipped > 0 {
            Diagnostics.warn(
                "skipped \(list.skipped) row\(list.skipped == 1 ? "" : "s") with unusable data (no objectId, or no valid coordinates).")
        }
        let output: String =
            switch format {
            case .table where accessible.isOn: AccessibleOutput.list(list.locations)
            case .table:
                LocationFormatter.table(
                    list.locations, hyperlinks: HyperlinkSetting.effective(flag: hyperlinks, environment: ProcessInfo.processInfo.environment))
            case .json: try LocationFormatter.json(list.locations)
            case .csv: LocationFormatter.csv(list.locations)
            }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
