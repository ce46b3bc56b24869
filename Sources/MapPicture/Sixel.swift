import WorldMap

/// DEC Sixel pictures, written from the picture's own palette (`IndexedImage`): a map has a few
/// dozen exact colours, so there is nothing to quantise, and the bands are written in one pass
/// (Docs/MapAndGeocoder.md, "Pixels"). Transparent pixels are left unset (P2 = 1), so the text
/// under them stays.
public enum Sixel {
    /// `image` as a Sixel sequence, one pixel a picture dot (the caller sizes the picture to the
    /// cells it covers): its own colours, or a fixed palette's for more than 256.
    public static func encode(_ image: RGBAImage) -> [UInt8] {
        encode(IndexedImage(exactly: image) ?? IndexedImage(quantizing: image))
    }

    /// The Sixel sequence of `image`: the header with its size (raster attributes, 1:1 pixels),
    /// the palette in percent, then each band of six rows as one run-length line per colour
    /// present in it, from the colour's first column to its last.
    public static func encode(_ image: IndexedImage) -> [UInt8] {
        let (width, height) = (image.width, image.height)
        var out: [UInt8] = []
        out.reserveCapacity(width * height / 8 + 4096)
        out += Array("\u{1B}P0;1;0q\"1;1;\(width);\(height)".utf8)
        let colors = image.colorCount
        var opaque = [Bool](repeating: false, count: 256)
        for index in 0..<colors {
            let base = index * 4
            guard image.colormap[base + 3] >= 128 else { continue }
            opaque[index] = true
            let percent = (0..<3).map { (Int(image.colormap[base + $0]) * 100 + 127) / 255 }
            out += Array("#\(index);2;\(percent[0]);\(percent[1]);\(percent[2])".utf8)
        }
        guard width > 0, height > 0 else {
            out += [0x1B, 0x5C]
            return out
        }
        // A band's dots: six bits a column for each colour, with the columns each colour spans.
        var bits = [UInt8](repeating: 0, count: 256 * width)
        var first = [Int](repeating: Int.max, count: 256)
        var last = [Int](repeating: -1, count: 256)
        var used: [Int] = []
        image.indexes.withUnsafeBufferPointer { indexes in
            bits.withUnsafeMutableBufferPointer { bits in
                for top in stride(from: 0, to: height, by: 6) {
                    used.removeAll(keepingCapacity: true)
                    for row in 0..<min(6, height - top) {
                        let bit = UInt8(1) << row
                        let line = (top + row) * width
                        var x = 0
                        while x < width {
                            // A run of one colour at a time: its bits, and its span once.
                            let color = Int(indexes[line + x])
                            var end = x + 1
                            while end < width, Int(indexes[line + end]) == color { end += 1 }
                            if opaque[color] {
                                if last[color] < 0 { used.append(color) }
                                first[color] = min(first[color], x)
                                last[color] = max(last[color], end - 1)
                                let base = color * width
                                for column in x..<end { bits[base + column] |= bit }
                            }
                            x = end
                        }
                    }
                    for (position, color) in used.enumerated() {
                        if position > 0 { out.append(UInt8(ascii: "$")) }
                        out.append(UInt8(ascii: "#"))
                        appendNumber(color, to: &out)
                        let base = color * width
                        if first[color] > 0 { appendRun(of: 63, count: first[color], to: &out) }
                        var column = first[color]
                        let stop = last[color]
                        while column <= stop {
                            let dots = bits[base + column]
                            var end = column + 1
                            while end <= stop, bits[base + end] == dots { end += 1 }
                            appendRun(of: 63 + dots, count: end - column, to: &out)
                            column = end
                        }
                        for column in first[color]...stop { bits[base + column] = 0 }
                        first[color] = Int.max
                        last[color] = -1
                    }
                    // The next band (none after the last: a terminal could scroll for it).
                    if top + 6 < height { out.append(UInt8(ascii: "-")) }
                }
            }
        }
        out += [0x1B, 0x5C]
        return out
    }

    /// `count` times the sixel `character`: `!count` and it once for more than three.
    private static func appendRun(of character: UInt8, count: Int, to out: inout [UInt8]) {
        if count > 3 {
            out.append(UInt8(ascii: "!"))
            appendNumber(count, to: &out)
            out.append(character)
        } else {
            for _ in 0..<count { out.append(character) }
        }
    }

    private static func appendNumber(_ value: Int, to out: inout [UInt8]) {
        if value >= 10 { appendNumber(value / 10, to: &out) }
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
