/// A picture as a palette index a pixel: what the map is drawn into (`PixelMapRenderer`) and
/// what a PNG and a Sixel picture are written from. A map has a few dozen exact colours (sea,
/// land, lines, markers, names), so nothing is quantised on the way, and a byte a pixel is a
/// quarter of the memory an RGBA picture writes.
public struct IndexedImage: Sendable, PixelCanvas {
    public let width: Int
    public let height: Int
    /// A palette index a pixel, row by row from the top.
    public var indexes: [UInt8]
    /// The palette: R, G, B, A, 4 bytes an entry, at most 256 entries.
    public var colormap: [UInt8]

    public var colorCount: Int { colormap.count / 4 }

    /// `width × height` pixels of `fill`, whose index is 0.
    public init(width: Int, height: Int, fill: RGB) {
        self.width = width
        self.height = height
        indexes = [UInt8](repeating: 0, count: width * height)
        colormap = [fill.red, fill.green, fill.blue, 255]
    }

    /// `width × height` pixels of the given indexes into `colormap`.
    public init(width: Int, height: Int, indexes: [UInt8], colormap: [UInt8]) {
        self.width = width
        self.height = height
        self.indexes = indexes
        self.colormap = colormap
    }

    /// The palette index of `color` (opaque), added when new; nil when the palette is full.
    public mutating func index(of color: RGB, alpha: UInt8 = 255) -> UInt8? {
        let entry = [color.red, color.green, color.blue, alpha]
        for index in 0..<colorCount where colormap[index * 4..<index * 4 + 4].elementsEqual(entry) { return UInt8(index) }
        guard colorCount < 256 else { return nil }
        colormap += entry
        return UInt8(colorCount - 1)
    }

    public func color(x: Int, y: Int) -> RGB? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let entry = Int(indexes[y * width + x]) * 4
        return RGB(colormap[entry], colormap[entry + 1], colormap[entry + 2])
    }

    public func alpha(x: Int, y: Int) -> UInt8? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return colormap[Int(indexes[y * width + x]) * 4 + 3]
    }

    /// Paints (x, y) with palette entry `index`; nothing outside the picture.
    public mutating func set(x: Int, y: Int, index: UInt8) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        indexes[y * width + x] = index
    }

    /// Paints (x, y) in `color` (the nearest entry when the palette is full: never for a map).
    public mutating func set(x: Int, y: Int, _ color: RGB) {
        set(x: x, y: y, index: index(of: color) ?? nearest(color))
    }

    public mutating func clear(cells: [Bool], columns: Int, cell: (width: Int, height: Int)) {
        guard columns > 0, cells.contains(true) else { return }
        let transparent = index(of: RGB(0, 0, 0), alpha: 0) ?? 0
        for (index, hole) in cells.enumerated() where hole {
            let (left, top) = (index % columns * cell.width, index / columns * cell.height)
            for y in top..<min(height, top + cell.height) where left < width {
                let row = y * width
                for x in left..<min(width, left + cell.width) { indexes[row + x] = transparent }
            }
        }
    }

    /// The picture in at most `count` opaque colours, numbered 0..<count (a terminal's Sixel
    /// colour registers: 16 on xterm's VT340, and a register past them is another's): the most
    /// used colours stay, each other one becomes the nearest of them; transparency stays, as
    /// the entry after them. Nothing changes when the picture already fits.
    public func reduced(toColors count: Int) -> IndexedImage {
        let opaque = (0..<colorCount).filter { colormap[$0 * 4 + 3] >= 128 }
        guard count > 0, opaque.count > count || opaque.contains(where: { $0 >= count }) else { return self }
        var uses = [Int](repeating: 0, count: 256)
        for index in indexes { uses[Int(index)] += 1 }
        let kept = opaque.filter { uses[$0] > 0 }.sorted { uses[$0] != uses[$1] ? uses[$0] > uses[$1] : $0 < $1 }
            .prefix(count)
        var colors: [UInt8] = []
        var mapping = [UInt8](repeating: 0, count: 256)
        for (slot, index) in kept.enumerated() {
            colors += colormap[index * 4..<index * 4 + 4]
            mapping[index] = UInt8(slot)
        }
        let palette = IndexedImage(width: 0, height: 0, indexes: [], colormap: colors)
        for index in 0..<colorCount where !kept.contains(index) {
            if colormap[index * 4 + 3] >= 128 {
                mapping[index] = palette.nearest(RGB(colormap[index * 4], colormap[index * 4 + 1], colormap[index * 4 + 2]))
            } else {
                mapping[index] = UInt8(kept.count)
            }
        }
        if (0..<colorCount).contains(where: { colormap[$0 * 4 + 3] < 128 && uses[$0] > 0 }) { colors += [0, 0, 0, 0] }
        return IndexedImage(width: width, height: height, indexes: indexes.map { mapping[Int($0)] }, colormap: colors)
    }

    /// The pixels of the rectangle at (`x`, `y`), `width × height` of them, with the same
    /// palette (clipped to the picture).
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> IndexedImage {
        let left = min(max(0, x), self.width)
        let top = min(max(0, y), self.height)
        let right = min(self.width, max(left, x + width))
        let bottom = min(self.height, max(top, y + height))
        var pixels: [UInt8] = []
        pixels.reserveCapacity((right - left) * (bottom - top))
        for row in top..<bottom { pixels += indexes[row * self.width + left..<row * self.width + right] }
        return IndexedImage(width: right - left, height: bottom - top, indexes: pixels, colormap: colormap)
    }

    /// The RGBA picture of the same pixels.
    public var rgba: RGBAImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for (position, index) in indexes.enumerated() {
            let entry = Int(index) * 4
            pixels[position * 4..<position * 4 + 4] = colormap[entry..<entry + 4]
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    private func nearest(_ color: RGB) -> UInt8 {
        var best = (index: 0, distance: Int.max)
        for index in 0..<colorCount where colormap[index * 4 + 3] == 255 {
            let distance = (0..<3).reduce(0) { sum, channel in
                let difference = Int(colormap[index * 4 + channel]) - Int([color.red, color.green, color.blue][channel])
                return sum + difference * difference
            }
            if distance < best.distance { best = (index, distance) }
        }
        return UInt8(best.index)
    }

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
