import Foundation
import OnTheMapModels
import ServerStorage

/// `import` reads its file a chunk at a time (Docs/Operations.md, "Backups"): memory is bounded
/// by a batch of rows, whatever the file's size (was: the whole file, and all of it decoded, in
/// memory — a 25 MB file took ~196 MB).

/// Bytes from a file or from memory, 64 KB at a time, with one byte of look-ahead given back.
struct ChunkedReader {
    static let chunkSize = 64 * 1024

    private let readChunk: () throws -> [UInt8]?
    private var chunk: [UInt8] = []
    private var index = 0
    private var givenBack: UInt8?

    /// Reads `path` from its start.
    init(file path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ServerDatabase.TransferError(description: "Cannot read \(path).")
        }
        readChunk = { try handle.read(upToCount: Self.chunkSize).map { [UInt8]($0) } }
    }

    /// Reads `data` (already in memory: the tests' files, standard input spooled elsewhere).
    init(data: Data) {
        var offset = data.startIndex
        readChunk = {
            guard offset < data.endIndex else { return nil }
            let end = min(offset + Self.chunkSize, data.endIndex)
            defer { offset = end }
            return [UInt8](data[offset..<end])
        }
    }

    /// The next byte; `nil` at the end.
    mutating func next() throws -> UInt8? {
        if let byte = givenBack {
            givenBack = nil
            return byte
        }
        while index == chunk.count {
            guard let more = try readChunk(), !more.isEmpty else { return nil }
            chunk = more
            index = 0
        }
        defer { index += 1 }
        return chunk[index]
    }

    /// Gives `byte` back: the next `next()` returns it.
    mutating func giveBack(_ byte: UInt8) { givenBack = byte }
}

/// The rows of `{"results":[ … ]}` (or of a bare array, as an old dump may be), one element's
/// bytes at a time: a small scanner that checks the structure around the array (brackets,
/// strings, commas) and leaves each element to `JSONDecoder`. Whatever it skips (other keys) it
/// never keeps.
struct JSONResultsScanner {
    enum Failure: Error, Equatable {
        case notJSON
        case noResults
        /// The element with this number (from 1) is longer than `maxRowBytes`.
        case rowTooLong(Int)
    }

    /// The longest element kept: far over any row an export writes (ten fields and the hidden
    /// mark, each at most `maxStringBytes`).
    static let maxRowBytes = 1 << 20
    /// The deepest nesting read (JSONDecoder's own limit).
    static let maxDepth = 512

    private enum Phase { case start, inArray, finished }

    private var input: ChunkedReader
    private var phase = Phase.start
    private var topLevelArray = false
    /// Elements read so far.
    private(set) var count = 0

    init(_ input: ChunkedReader) { self.input = input }

    /// The next element's bytes, `nil` after the last (once the whole file was checked).
    mutating func next() throws(Failure) -> [UInt8]? {
        switch phase {
        case .finished:
            return nil
        case .start:
            try openResults()
            phase = .inArray
            let first = try token()
            if first == UInt8(ascii: "]") {
                try finish()
                return nil
            }
            return try element(first)
        case .inArray:
            let separator = try token()
            if separator == UInt8(ascii: "]") {
                try finish()
                return nil
            }
            guard separator == UInt8(ascii: ",") else { throw .notJSON }
            let next = try token()
            // A comma before the `]`: Foundation's JSONDecoder, which read the whole file before,
            // accepts it, so an old file that has one still imports.
            if next == UInt8(ascii: "]") {
                try finish()
                return nil
            }
            return try element(next)
        }
    }

    private mutating func element(_ first: UInt8) throws(Failure) -> [UInt8] {
        count += 1
        var kept: [UInt8] = []
        try value(first, keeping: &kept, keep: true)
        return kept
    }

    /// Finds the array: the top level, or the value of the top-level object's `results`.
    private mutating func openResults() throws(Failure) {
        let first = try token()
        if first == UInt8(ascii: "[") {
            topLevelArray = true
            return
        }
        guard first == UInt8(ascii: "{") else { throw Self.isValueStart(first) ? .noResults : .notJSON }
        var next = try token()
        if next == UInt8(ascii: "}") { throw .noResults }
        while true {
            guard next == UInt8(ascii: "\"") else { throw .notJSON }
            let isResults = try key() == Array("results".utf8)
            guard try token() == UInt8(ascii: ":") else { throw .notJSON }
            let start = try token()
            if isResults {
                guard start == UInt8(ascii: "[") else { throw .noResults }
                return
            }
            var nothing: [UInt8] = []
            try value(start, keeping: &nothing, keep: false)
            let after = try token()
            if after == UInt8(ascii: "}") { throw .noResults }
            guard after == UInt8(ascii: ",") else { throw .notJSON }
            next = try token()
            if next == UInt8(ascii: "}") { throw .noResults }
        }
    }

    /// After the array: the rest of the top-level object (skipped), then nothing but space.
    private mutating func finish() throws(Failure) {
        phase = .finished
        if !topLevelArray {
            while true {
                let next = try token()
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { throw .notJSON }
                let quote = try token()
                if quote == UInt8(ascii: "}") { break }  // a comma before the `}`, as JSONDecoder lets pass
                guard quote == UInt8(ascii: "\"") else { throw .notJSON }
                _ = try key()
                guard try token() == UInt8(ascii: ":") else { throw .notJSON }
                var nothing: [UInt8] = []
                try value(try token(), keeping: &nothing, keep: false)
            }
        }
        while let byte = try read() {
            guard Self.isSpace(byte) else { throw .notJSON }
        }
    }

    /// A key after its opening quote: its first bytes (enough to tell `results`), escapes as written.
    private mutating func key() throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            guard let byte = try read() else { throw .notJSON }
            if byte == UInt8(ascii: "\"") { return bytes }
            if bytes.count < 16 { bytes.append(byte) }
            if byte == UInt8(ascii: "\\") {
                guard let escaped = try read() else { throw .notJSON }
                if bytes.count < 16 { bytes.append(escaped) }
            }
        }
    }

    /// One value from its first byte: kept in `kept` (up to `maxRowBytes`) when `keep`.
    private mutating func value(_ first: UInt8, keeping kept: inout [UInt8], keep: Bool) throws(Failure) {
        try add(first, to: &kept, keep)
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var closers: [UInt8] = [first == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")]
            while let expected = closers.last {
                guard let byte = try read() else { throw .notJSON }
                try add(byte, to: &kept, keep)
                switch byte {
                case UInt8(ascii: "\""):
                    try string(&kept, keep)
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard closers.count < Self.maxDepth else { throw .notJSON }
                    closers.append(byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard byte == expected else { throw .notJSON }
                    closers.removeLast()
                default:
                    continue
                }
            }
        case UInt8(ascii: "\""):
            try string(&kept, keep)
        default:
            // A number, true, false or null: up to the next delimiter, which is given back.
            guard Self.isValueStart(first) else { throw .notJSON }
            while let byte = try read() {
                if Self.isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                    input.giveBack(byte)
                    break
                }
                try add(byte, to: &kept, keep)
            }
        }
    }

    /// Keeps `byte` when `keep`, within `maxRowBytes`.
    private func add(_ byte: UInt8, to kept: inout [UInt8], _ keep: Bool) throws(Failure) {
        guard keep else { return }
        guard kept.count < Self.maxRowBytes else { throw .rowTooLong(count) }
        kept.append(byte)
    }

    /// The rest of a string after its opening quote, through its closing one.
    private mutating func string(_ kept: inout [UInt8], _ keep: Bool) throws(Failure) {
        while true {
            guard let byte = try read() else { throw .notJSON }
            try add(byte, to: &kept, keep)
            if byte == UInt8(ascii: "\"") { return }
            if byte == UInt8(ascii: "\\") {
                guard let escaped = try read() else { throw .notJSON }
                try add(escaped, to: &kept, keep)
            }
        }
    }

    /// The next byte that is not space; the end of the file is not JSON here.
    private mutating func token() throws(Failure) -> UInt8 {
        while let byte = try read() {
            if !Self.isSpace(byte) { return byte }
        }
        throw .notJSON
    }

    private mutating func read() throws(Failure) -> UInt8? {
        do { return try input.next() } catch { throw .notJSON }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isValueStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n")
    }
}

/// CSV records (RFC 4180, as `LocationCSV` writes them) one at a time, over bytes: the
/// delimiters are ASCII, so a cell's UTF-8 is never split, and a quoted cell may hold commas,
/// quotes and line breaks. Blank lines are skipped.
struct CSVRecordReader {
    /// The longest record kept (over any an export writes).
    static let maxRecordBytes = 1 << 20

    struct TooLong: Error {}

    private var input: ChunkedReader

    init(_ input: ChunkedReader) { self.input = input }

    /// The next record's cells; `nil` at the end.
    mutating func next() throws -> [String]? {
        var record: [String] = []
        var cell: [UInt8] = []
        var quoted = false
        var size = 0
        while true {
            guard let byte = try input.next() else {
                record.append(String(decoding: cell, as: UTF8.self))
                return record == [""] ? nil : record
            }
            size += 1
            guard size <= Self.maxRecordBytes else { throw TooLong() }
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if let next = try input.next() {
                        if next == UInt8(ascii: "\"") {
                            cell.append(byte)
                        } else {
                            quoted = false
                            input.giveBack(next)
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where cell.isEmpty:
                quoted = true
            case UInt8(ascii: ","):
                record.append(String(decoding: cell, as: UTF8.self))
                cell = []
            case 0x0D, 0x0A:
                if byte == 0x0D, let next = try input.next(), next != 0x0A { input.giveBack(next) }
                record.append(String(decoding: cell, as: UTF8.self))
                cell = []
                if record != [""] { return record }
                record = []
                size = 0
            default:
                cell.append(byte)
            }
        }
    }
}

/// The rows of an import file, a batch at a time, each decided by `LocationImport` (kept,
/// skipped and counted, or refused with its number).
struct LocationRows {
    /// Rows read per batch (and, for JSON, at most this many bytes of them decoded at once).
    static let batchRows = 1000
    static let batchBytes = 1 << 20

    private enum Source {
        case json(JSONResultsScanner)
        case csv(CSVRecordReader, header: [String])
    }

    private var source: Source
    private let importer: LocationImport
    /// Rows read so far (the number of the last one).
    private(set) var read = 0

    init(_ format: ServerDatabase.TransferFormat, _ input: ChunkedReader, importer: LocationImport) throws {
        self.importer = importer
        switch format {
        case .json:
            source = .json(JSONResultsScanner(input))
        case .csv:
            var records = CSVRecordReader(input)
            let first: [String]?
            do { first = try records.next() } catch { throw Self.refusal("Line 1 is over 1 MB, longer than any CSV header") }
            guard let first else { throw ServerDatabase.TransferError(description: "The file is empty.") }
            let header = first.map { $0.trimmingCharacters(in: .whitespaces) }
            if header.contains("hidden") {
                throw Self.refusal("Line 1: a \"hidden\" column is not an export's (a hidden row has a hiddenAt date)")
            }
            source = .csv(records, header: header)
        }
    }

    private static func refusal(_ text: String) -> ServerDatabase.TransferError {
        ServerDatabase.TransferError(description: "\(text). Nothing was imported.")
    }

    /// The rows to store of the next batch (skipped rows counted in `report`); `nil` at the end.
    mutating func nextBatch(report: inout LocationImport.Report) throws -> [StoredLocation]? {
        switch source {
        case .json(var scanner):
            defer { source = .json(scanner) }
            return try nextJSONBatch(&scanner, report: &report)
        case .csv(var records, let header):
            defer { source = .csv(records, header: header) }
            return try nextCSVBatch(&records, header: header, report: &report)
        }
    }

    private mutating func nextJSONBatch(_ scanner: inout JSONResultsScanner, report: inout LocationImport.Report) throws
        -> [StoredLocation]?
    {
        // The batch's elements as one JSON array: one decoder call per batch, not per row.
        var array: [UInt8] = [UInt8(ascii: "[")]
        var elements = 0
        do throws(JSONResultsScanner.Failure) {
            while elements < Self.batchRows, array.count < Self.batchBytes, let element = try scanner.next() {
                if elements > 0 { array.append(UInt8(ascii: ",")) }
                array += element
                elements += 1
            }
        } catch {
            switch error {
            case .notJSON: throw ServerDatabase.TransferError(description: "The file is not JSON.")
            case .noResults: throw ServerDatabase.TransferError(description: "The file has no \"results\" array.")
            case .rowTooLong(let number):
                throw Self.refusal("Row \(number) of \"results\" is over 1 MB, longer than any row of an export")
            }
        }
        guard elements > 0 else { return nil }
        array.append(UInt8(ascii: "]"))
        let items: [JSONValue]
        do {
            items = try JSONDecoder().decode([JSONValue].self, from: Data(array))
        } catch {
            throw ServerDatabase.TransferError(description: "The file is not JSON.")
        }
        var rows: [StoredLocation] = []
        for item in items {
            read += 1
            report.read += 1
            guard case .object(let object) = item else {
                report.skippedMalformed += 1
                continue
            }
            do {
                if let row = try importer.row(from: object, report: &report) { rows.append(row) }
            } catch {
                throw Self.refusal("Row \(read) of \"results\": \(error)")
            }
        }
        return rows
    }

    private mutating func nextCSVBatch(_ records: inout CSVRecordReader, header: [String], report: inout LocationImport.Report)
        throws -> [StoredLocation]?
    {
        var rows: [StoredLocation] = []
        var count = 0
        while count < Self.batchRows {
            let record: [String]?
            do { record = try records.next() } catch { throw Self.refusal("Record \(read + 1) after the header is over 1 MB") }
            guard let record else { break }
            count += 1
            read += 1
            report.read += 1
            do {
                if let row = try importer.row(fromCSV: record, header: header, report: &report) { rows.append(row) }
            } catch {
                // Records are lines unless a quoted cell holds a line break.
                throw Self.refusal("Record \(read) after the header: \(error)")
            }
        }
        return count == 0 ? nil : rows
    }
}
