import ClassRules
import Foundation
import OnTheMapModels
import ServerStorage

/// `onthemap-server export` and `import`: every location as `{"results":[…]}` (what the API
/// lists, so an old Parse dump imports too) or as CSV, hidden rows with their whole mark
/// (`hidden`, `hiddenReason`, `hiddenAt`, `hiddenBy`; CSV: the last three columns), so that an
/// import of an export reproduces who sees what.
extension ServerDatabase {
    /// A file format of `export` and `import`.
    public enum TransferFormat: String, Sendable, CaseIterable {
        case json, csv
    }

    /// Why a file cannot be imported.
    public struct TransferError: Error, CustomStringConvertible {
        public var description: String
    }

    /// What an import did.
    public struct ImportReport: Sendable, Equatable {
        public var read: Int
        public var imported: Int
        /// Rows without finite latitude −90…90 and longitude −180…180: skipped.
        public var skippedCoordinates: Int
        /// Rows whose objectId is already in the database (or twice in the file): skipped.
        public var skippedDuplicates: Int
        /// Rows that are not objects, or whose text fields are not text (or over the length limit).
        public var skippedMalformed: Int

        public init(read: Int, imported: Int, skippedCoordinates: Int, skippedDuplicates: Int, skippedMalformed: Int) {
            self.read = read
            self.imported = imported
            self.skippedCoordinates = skippedCoordinates
            self.skippedDuplicates = skippedDuplicates
            self.skippedMalformed = skippedMalformed
        }
    }

    /// Writes every location, in objectId order, in pages of 1,000, to `write`.
    public func export(format: TransferFormat, write: (Data) throws -> Void) async throws -> Int {
        var last: String?
        var total = 0
        try write(Data((format == .json ? #"{"results":["# : LocationCSV.headerLine()).utf8))
        while true {
            var query = ListQuery(order: [.init(field: .objectId, descending: false)], limit: 1000)
            if let last { query.predicate = .compare(.objectId, .greater, .text(last)) }
            let rows = try await storage.locations(query).rows
            var chunk = ""
            var json: [UInt8] = []
            json.reserveCapacity(rows.count * 280)
            for (index, row) in rows.enumerated() {
                switch format {
                case .json:
                    json.append(contentsOf: (total + index > 0 ? ",\n" : "\n").utf8)
                    var one = LocationJSON()
                    one.write(row, keys: nil)
                    json.append(contentsOf: one.bytes)
                    if let hiddenAt = row.hiddenAt {
                        // Beside `hidden` and `hiddenReason` (which the API's moderators see),
                        // when and by whom: the whole mark, so that an import restores it.
                        json.removeLast()
                        json.append(contentsOf: #","hiddenAt":"#.utf8)
                        json.append(contentsOf: try JSONEncoder().encode(hiddenAt))
                        json.append(contentsOf: #","hiddenBy":"#.utf8)
                        json.append(contentsOf: try JSONEncoder().encode(row.hiddenBy ?? AuditLog.operator))
                        json.append(UInt8(ascii: "}"))
                    }
                case .csv:
                    chunk += LocationCSV.line(row)
                }
            }
            try write(format == .json ? Data(json) : Data(chunk.utf8))
            total += rows.count
            last = rows.last?.objectId
            if rows.count < 1000 { break }
        }
        if format == .json { try write(Data("\n]}\n".utf8)) }
        return total
    }

    /// Imports the rows of the file at `path`; see `LocationImport` for what is kept. The file is
    /// read twice, a chunk at a time: first every row is checked (a refused row stops the import,
    /// naming it, before anything is written), then the rows are written in one transaction per
    /// 1,000. Memory is a batch of rows, whatever the file's size.
    public func importLocations(file path: String, format: TransferFormat) async throws -> ImportReport {
        try await importLocations(format: format) { try ChunkedReader(file: path) }
    }

    /// Imports the rows of `data`, as `importLocations(file:format:)` does a file's.
    public func importLocations(_ data: Data, format: TransferFormat) async throws -> ImportReport {
        try await importLocations(format: format) { ChunkedReader(data: data) }
    }

    private func importLocations(format: TransferFormat, open: () throws -> ChunkedReader) async throws -> ImportReport {
        let importer = LocationImport(maxStringBytes: configuration.maxStringBytes)
        // First pass: every row decided, nothing written.
        var checked = LocationImport.Report()
        var check = try LocationRows(format, try open(), importer: importer)
        while try check.nextBatch(report: &checked) != nil {}
        // Second pass: the same rows, written. A row already in the database (or earlier in the
        // file: its batch was written before) is skipped.
        var report = LocationImport.Report()
        var rows = try LocationRows(format, try open(), importer: importer)
        while let batch = try rows.nextBatch(report: &report) {
            guard !batch.isEmpty else { continue }
            let ids = batch.map { SQLValue.text($0.objectId) }
            let existing = try await storage.locations(ListQuery(predicate: .inList(.objectId, ids), limit: ids.count)).rows
            var seen = Set(existing.map(\.objectId))
            var fresh: [StoredLocation] = []
            for row in batch where seen.insert(row.objectId).inserted { fresh.append(row) }
            report.skippedDuplicates += batch.count - fresh.count
            try await writes.importLocations(fresh, try permit(.importLocations))
            report.imported += fresh.count
        }
        return ImportReport(
            read: report.read, imported: report.imported, skippedCoordinates: report.skippedCoordinates,
            skippedDuplicates: report.skippedDuplicates, skippedMalformed: report.skippedMalformed)
    }
}
