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

    /// Imports the rows of `data`; see `LocationImport` for what is kept. Rows are written in one
    /// transaction per 1,000.
    public func importLocations(_ data: Data, format: TransferFormat) async throws -> ImportReport {
        let importer = LocationImport(maxStringBytes: configuration.maxStringBytes)
        var report = LocationImport.Report()
        var rows: [StoredLocation] = []
        switch format {
        case .json:
            let document: JSONValue
            do {
                document = try JSONDecoder().decode(JSONValue.self, from: data)
            } catch {
                throw TransferError(description: "The file is not JSON.")
            }
            guard case .array(let items) = document["results"] ?? document else {
                throw TransferError(description: "The file has no \"results\" array.")
            }
            for (index, item) in items.enumerated() {
                report.read += 1
                guard case .object(let object) = item else {
                    report.skippedMalformed += 1
                    continue
                }
                do {
                    if let row = try importer.row(from: object, report: &report) { rows.append(row) }
                } catch {
                    throw TransferError(description: "Row \(index + 1) of \"results\": \(error). Nothing was imported.")
                }
            }
        case .csv:
            var records = LocationCSV.records(String(decoding: data, as: UTF8.self))
            guard !records.isEmpty else { throw TransferError(description: "The file is empty.") }
            let header = records.removeFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            if header.contains("hidden") {
                throw TransferError(
                    description: "Line 1: a \"hidden\" column is not an export's (a hidden row has a hiddenAt date). Nothing was imported.")
            }
            for (index, record) in records.enumerated() {
                report.read += 1
                do {
                    if let row = try importer.row(fromCSV: record, header: header, report: &report) { rows.append(row) }
                } catch {
                    // Records are lines unless a quoted cell holds a line break.
                    throw TransferError(description: "Record \(index + 1) after the header: \(error). Nothing was imported.")
                }
            }
        }
        var seen = Set<String>()
        for start in stride(from: 0, to: rows.count, by: 1000) {
            let batch = rows[start..<min(start + 1000, rows.count)]
            let ids = batch.map { SQLValue.text($0.objectId) }
            let existing = try await storage.locations(ListQuery(predicate: .inList(.objectId, ids), limit: ids.count)).rows
            seen.formUnion(existing.map(\.objectId))
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
