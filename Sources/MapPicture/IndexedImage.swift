import WorldMap

/// A picture as a palette index a pixel: what a PNG and a Sixel picture of the map are written
/// from. A map has a few dozen exact colours (sea, land, lines, markers, names), so nothing is
/// quantised on the way: the terminal gets the theme's own colours.
public struct IndexedImage: Sendable {
    public let width: Int
    public let height: Int
    /// A palette index a pixel, row by row from the top.
    public var indexes: [UInt8]
    /// The palette: R, G, B, A, 4 bytes an entry, at most 256 entries.
    public var colormap: [UInt8]

    public var colorCount: Int { colormap.count / 4 }

    /// `image` with its own colours; nil when it has more than 256. Runs of one colour cost a
    /// comparison a pixel.
    public init?(exactly image: RGBAImage) {
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
        width = image.width
        height = image.height
        self.indexes = indexes
        // The words' bytes are R, G, B, A in memory, as the colormap wants them.
        colormap = colours.withUnsafeBytes { Array($0) }
    }

    /// `image` on a fixed palette of 6 reds × 7 greens × 6 blues (252 colours) and transparent:
    /// for a picture with more colours than a palette holds (never a map of ours).
    public init(quantizing image: RGBAImage) {
        width = image.width
        height = image.height
        var colormap: [UInt8] = []
        for red in 0..<6 {
            for green in 0..<7 {
                for blue in 0..<6 { colormap += [UInt8(red * 51), UInt8(green * 85 / 2), UInt8(blue * 51), 255] }
            }
        }
        colormap += [0, 0, 0, 0]
        let transparent = UInt8(colormap.count / 4 - 1)
        var indexes = [UInt8](repeating: transparent, count: width * height)
        for position in indexes.indices where image.pixels[position * 4 + 3] >= 128 {
            let red = (Int(image.pixels[position * 4]) * 5 + 127) / 255
            let green = (Int(image.pixels[position * 4 + 1]) * 6 + 127) / 255
            let blue = (Int(image.pixels[position * 4 + 2]) * 5 + 127) / 255
            indexes[position] = UInt8((red * 7 + green) * 6 + blue)
        }
        self.indexes = indexes
        self.colormap = colormap
    }
}
