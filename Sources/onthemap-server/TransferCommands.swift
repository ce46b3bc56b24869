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
            // Read a chunk at a time, twice (every row checked, then written): standard input is
            // first copied to a private file (0600, removed after) so that it can be read again.
            var spool: PrivateFile?
            let path: String
            if file == "-" {
                do {
                    let copy = try PrivateFile(
                        at: FileManager.default.temporaryDirectory.appendingPathComponent("onthemap-import-\(UUID().uuidString)").path,
                        replacing: false)
                    while let chunk = try FileHandle.standardInput.read(upToCount: 64 * 1024), !chunk.isEmpty { try copy.write(chunk) }
                    spool = copy
                    path = copy.temporaryPath
                } catch let error as PrivateFileError {
                    throw ValidationError(error.description)
                }
            } else {
                guard FileManager.default.isReadableFile(atPath: file) else { throw ValidationError("Cannot read \(file).") }
                path = file
            }
            defer { withExtendedLifetime(spool) {} }
            let chosen = format ?? (file.lowercased().hasSuffix(".csv") ? .csv : .json)
            let report: ServerDatabase.ImportReport
            do {
                report = try await database.withDatabase { db in try await db.importLocations(file: path, format: chosen) }
            } catch let error as ServerDatabase.TransferError {
                throw ValidationError(error.description)
            }
            print(
                "Read \(report.read) rows: imported \(report.imported); skipped \(report.skippedCoordinates) without usable "
                    + "coordinates, \(report.skippedDuplicates) already present, \(report.skippedMalformed) malformed.")
        }
    }
}
