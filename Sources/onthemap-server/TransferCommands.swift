import ArgumentParser
import Foundation
import OnTheMapServer

extension ServerDatabase.TransferFormat: ExpressibleByArgument {}

extension OnTheMapServerCommand {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every location as JSON ({\"results\":[…]}, as the API lists them) or CSV.")

        @Option(help: "json or csv.") var format: ServerDatabase.TransferFormat = .json
        @Option(name: .shortAndLong, help: "The file to write (standard output when not given).") var output: String?
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let db = try await ServerDatabase.open(database.configuration)
            let handle: FileHandle
            if let output {
                guard FileManager.default.createFile(atPath: output, contents: nil) else {
                    throw ValidationError("Cannot write \(output).")
                }
                guard let file = FileHandle(forWritingAtPath: output) else { throw ValidationError("Cannot write \(output).") }
                handle = file
            } else {
                handle = FileHandle.standardOutput
            }
            let count = try await db.export(format: format) { try handle.write(contentsOf: $0) }
            if output != nil {
                try handle.close()
                FileHandle.standardError.write(Data("Exported \(count) locations.\n".utf8))
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add locations from a JSON ({\"results\":[…]}, an export or an old Parse dump) or CSV file.",
            discussion: """
                Rows without a finite latitude (−90…90) and longitude (−180…180) are skipped, as the API \
                would refuse them; rows whose objectId is already there are skipped; a numeric uniqueKey \
                becomes text; a missing objectId or date is made up.
                """)

        @Argument(help: "The file (- for standard input).") var file: String
        @Option(help: "json or csv (default: from the file's extension, else json).") var format: ServerDatabase.TransferFormat?
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else { throw ValidationError("Cannot read \(file).") }
                data = contents
            }
            let chosen = format ?? (file.lowercased().hasSuffix(".csv") ? .csv : .json)
            let db = try await ServerDatabase.open(database.configuration)
            do {
                let report = try await db.importLocations(data, format: chosen)
                print(
                    "Read \(report.read) rows: imported \(report.imported); skipped \(report.skippedCoordinates) without usable "
                        + "coordinates, \(report.skippedDuplicates) already present, \(report.skippedMalformed) malformed.")
            } catch let error as ServerDatabase.TransferError {
                throw ValidationError(error.description)
            }
        }
    }
}
