import Foundation

/// The five bytes `)]}'\n` that start every session and users response (anti-XSSI).
public enum XSSIPrefix {
    public static let bytes: [UInt8] = Array(")]}'\n".utf8)

    /// `data` without the prefix when it starts with it; otherwise `data` unchanged.
    public static func strip(_ data: Data) -> Data {
        data.starts(with: bytes) ? data.dropFirst(bytes.count) : data
    }
}
