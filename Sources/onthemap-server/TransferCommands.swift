import ArgumentParser
import Foundation
import OnTheMapServer
import ServerAdmin
import UserFiles

extension ServerDatabase.TransferFormat: ExpressibleByArgument {}

extension OnTheMapServerCommand {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every location as JSON ({\"results\":[…]}, as the API lists them) or CSV.")

        @Option(help: "json or csv.") var format: ServerDatabase.TransferFormat = .json
        @Option(
            name: .shortAndLong,
            help: "The file to write (standard output when not given): a new file of mode 0600, an export holding every hidden row.")
        var output: String?
        @Flag(help: "Replace --output when it exists (a symlink is replaced, never written through).") var force = false
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            guard let output else {
                _ = try await database.withDatabase { db in
                    try await db.export(format: format) { try FileHandle.standardOutput.write(contentsOf: $0) }
                }
                return
            }
            do {
                let file = try PrivateFile(at: output, replacing: force)
                let count = try await database.withDatabase { db in
                    try await db.export(format: format) { try file.write($0) }
                }
                try file.commit()
                FileHandle.standardError.write(Data("Exported \(count) locations.\n".utf8))
            } catch let error as PrivateFileError {
                throw ValidationError(error.description)
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add locations from a JSON ({\"results\":[…]}, an export or an old Parse dump) or CSV file.",
            discussion: """
                Rows without a finite latitude (−90…90) and longitude (−180…180) are skipped, as the API \
                would refuse them; rows whose objectId is already there are skipped; a numeric uniqueKey \
                becomes text; a missing objectId or date is made up. A row the file marks hidden (an \
                export's hiddenAt, hiddenReason, hiddenBy; JSON's "hidden": true) is imported hidden.
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
            let report: ServerDatabase.ImportReport
            do {
                report = try await database.withDatabase { db in try await db.importLocations(data, format: chosen) }
            } catch let error as ServerDatabase.TransferError {
                throw ValidationError(error.description)
            }
            print(
                "Read \(report.read) rows: imported \(report.imported); skipped \(report.skippedCoordinates) without usable "
                    + "coordinates, \(report.skippedDuplicates) already present, \(report.skippedMalformed) malformed.")
        }
    }
}
