import Foundation

/// How an answer's body ends (RFC 9112 §6.3), and the other pure parsing of an answer's head.
enum PlainHTTPFraming: Equatable {
    /// `Transfer-Encoding` ending in `chunked`.
    case chunked
    /// `Content-Length`, one value however many times it is repeated.
    case length(Int)
    /// A `Content-Length` of digits too many for an `Int`: past any cap.
    case tooLong
    /// Neither (or a `Transfer-Encoding` not ending in `chunked`): the body ends when the server closes.
    case untilClosed

    init(fields: [HTTPField]) throws(HTTPFailure) {
        func values(_ name: String) -> [String]? {
            let matching = fields.values(of: name)
            if matching.isEmpty { return nil }
            return matching.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        if let encodings = values("Transfer-Encoding") {
            // Transfer-Encoding wins over Content-Length (RFC 9112 §6.3, 3).
            self = encodings.last(where: { !$0.isEmpty })?.lowercased() == "chunked" ? .chunked : .untilClosed
            return
        }
        guard let lengths = values("Content-Length") else {
            self = .untilClosed
            return
        }
        guard lengths.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }) else {
            throw .transport("a malformed Content-Length")
        }
        let numbers = Set(lengths.map { $0.drop { $0 == "0" } })
        guard let number = numbers.first, numbers.count == 1 else {
            throw .transport("conflicting Content-Length values")
        }
        if number.isEmpty {
            self = .length(0)
        } else if let length = Int(number) {
            self = .length(length)
        } else {
            self = .tooLong
        }
    }

    /// The status of a status line `HTTP/1.x NNN[ reason]`; nil when it is not one.
    static func status(of line: [UInt8]) -> Int? {
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        guard line.count >= 12, line.starts(with: Array("HTTP/1.".utf8)), isDigit(line[7]), line[8] == 0x20,
            line[9...11].allSatisfy(isDigit), line.count == 12 || line[12] == 0x20,
            let status = Int(String(decoding: line[9...11], as: UTF8.self)), status >= 100
        else { return nil }
        return status
    }

    /// The size of a chunk-size line (`1a2b;extension=value`), hexadecimal; overflow, a sign or
    /// anything not hexadecimal is a transport failure.
    static func chunkSize(_ line: [UInt8]) throws(HTTPFailure) -> Int {
        // Spaces or tabs may come before the extensions' `;` (RFC 9112 §7.1.1).
        var digits = line.prefix { $0 != UInt8(ascii: ";") }
        while let last = digits.last, last == 0x20 || last == 0x09 { digits.removeLast() }
        guard !digits.isEmpty else { throw .transport("a malformed chunk size") }
        var size = 0
        for byte in digits {
            guard let digit = Int(String(Unicode.Scalar(byte)), radix: 16) else {
                throw .transport("a malformed chunk size (\"\(excerpt(line))\")")
            }
            let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
            guard !overflow else { throw .transport("a chunk size too big to be true") }
            size = shifted + digit
        }
        return size
    }

    /// A field value without its surrounding spaces and tabs.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
