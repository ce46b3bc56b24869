import CPNG
import WorldMap

/// PNG files of the map, through Debian's libpng, loaded on first use (`CPNG`).
public enum PNG {
    /// Why a picture could not be written or read.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether libpng can be loaded here (`libpng16-16`).
    public static var isAvailable: Bool { otm_png_available() != 0 }

    /// The PNG file of `image`: a palette PNG when it has at most 256 colours, else RGBA.
    public static func encode(_ image: RGBAImage) throws -> [UInt8] {
        if let indexed = IndexedImage(exactly: image) { return try encode(indexed) }
        return try written { out, size, message in
            image.pixels.withUnsafeBufferPointer { pixels in
                otm_png_encode_rgba(pixels.baseAddress, UInt32(image.width), UInt32(image.height), &out, &size, &message, 128)
            }
        }
    }

    /// The palette PNG file of `image` (as few bits a pixel as its palette allows).
    public static func encode(_ image: IndexedImage) throws -> [UInt8] {
        try written { out, size, message in
            image.indexes.withUnsafeBufferPointer { indexes in
                image.colormap.withUnsafeBufferPointer { colormap in
                    otm_png_encode_indexed(
                        indexes.baseAddress, UInt32(image.width), UInt32(image.height), colormap.baseAddress,
                        UInt32(image.colorCount), &out, &size, &message, 128)
                }
            }
        }
    }

    /// The bytes a CPNG encoder wrote (`encode` gets where to put them and a 128-byte message
    /// buffer, and returns CPNG's status), or its failure.
    private static func written(
        _ encode: (inout UnsafeMutablePointer<UInt8>?, inout Int, inout [CChar]) -> Int32
    ) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 128)
        let result = encode(&out, &size, &message)
        guard result == 0, let out else { throw failure(result, message) }
        defer { otm_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// The pixels of a PNG file (at most `maxPixels` of them).
    public static func decode(_ data: [UInt8], maxPixels: Int = 16_000_000) throws -> RGBAImage {
        var out: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0
        var height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 128)
        let result = data.withUnsafeBufferPointer { bytes in
            otm_png_decode_rgba(bytes.baseAddress, bytes.count, maxPixels, &out, &width, &height, &message, 128)
        }
        guard result == 0, let out else { throw failure(result, message) }
        defer { otm_png_free(out) }
        let count = Int(width) * Int(height) * 4
        return RGBAImage(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: out, count: count)))
    }

    private static func failure(_ result: Int32, _ message: [CChar]) -> Failure {
        if result == -1 { return Failure(description: "PNG needs libpng (Debian's libpng16-16), which could not be loaded.") }
        let words = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Failure(description: "libpng refused the picture" + (words.isEmpty ? "." : ": \(words)."))
    }
}
