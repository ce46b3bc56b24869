import CChafa
import WorldMap

/// Sixel pictures through Debian's libchafa, loaded on first use (`CChafa`): chafa quantises the
/// palette and writes the bands.
public enum Sixel {
    /// Whether libchafa can be loaded here (`libchafa0`).
    public static var isAvailable: Bool { otm_chafa_available() != 0 }

    /// `image` as a Sixel sequence over `columns × rows` cells of `cell` pixels.
    public static func encode(_ image: RGBAImage, columns: Int, rows: Int, cell: (width: Int, height: Int)) throws -> String {
        var out: UnsafeMutablePointer<CChar>?
        var size = 0
        let result = image.pixels.withUnsafeBufferPointer { pixels in
            otm_chafa_sixel(
                pixels.baseAddress, Int32(image.width), Int32(image.height), Int32(columns), Int32(rows), Int32(cell.width),
                Int32(cell.height), &out, &size)
        }
        guard result == 0, let out else {
            throw PNG.Failure(
                description: result == -1
                    ? "Sixel needs libchafa (Debian's libchafa0), which could not be loaded." : "libchafa made no picture.")
        }
        defer { otm_chafa_free(out) }
        return String(decoding: UnsafeRawBufferPointer(start: out, count: size), as: UTF8.self)
    }
}
