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

    /// The PNG file of `image`: a palette PNG when it has at most 256 colours (a map has a few
    /// dozen), else RGBA.
    public static func encode(_ image: RGBAImage) throws -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 128)
        let result: Int32
        if let (indexes, colormap) = palette(image) {
            result = indexes.withUnsafeBufferPointer { indexes in
                colormap.withUnsafeBufferPointer { colormap in
                    otm_png_encode_indexed(
                        indexes.baseAddress, UInt32(image.width), UInt32(image.height), colormap.baseAddress,
                        UInt32(colormap.count / 4), &out, &size, &message, 128)
                }
            }
        } else {
            result = image.pixels.withUnsafeBufferPointer { pixels in
                otm_png_encode_rgba(pixels.baseAddress, UInt32(image.width), UInt32(image.height), &out, &size, &message, 128)
            }
        }
        guard result == 0, let out else { throw failure(result, message) }
        defer { otm_png_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// `image` as a palette index a pixel and its colours (RGBA, 4 bytes each); nil when it has
    /// more than 256. Runs of one colour cost a comparison a pixel.
    static func palette(_ image: RGBAImage) -> (indexes: [UInt8], colormap: [UInt8])? {
        let count = image.width * image.height
        guard count > 0, image.pixels.count >= count * 4 else { return nil }
        var colours: [UInt32] = []
        var indexes = [UInt8](repeating: 0, count: count)
        let fits = image.pixels.withUnsafeBytes { raw -> Bool in
            let words = raw.bindMemory(to: UInt32.self)
            var last = words[0]
            var lastIndex = UInt8(0)
            colours.append(last)
            return indexes.withUnsafeMutableBufferPointer { out -> Bool in
                for position in 0..<count {
                    let word = words[position]
                    if word != last {
                        if let known = colours.firstIndex(of: word) {
                            lastIndex = UInt8(known)
                        } else {
                            guard colours.count < 256 else { return false }
                            lastIndex = UInt8(colours.count)
                            colours.append(word)
                        }
                        last = word
                    }
                    out[position] = lastIndex
                }
                return true
            }
        }
        guard fits else { return nil }
        // The words' bytes are R, G, B, A in memory, as the colormap wants them.
        return (indexes, colours.withUnsafeBytes { Array($0) })
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
