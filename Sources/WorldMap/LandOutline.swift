/// The land's light style: only the dots along the coast (land dots with water beside them)
/// are kept whole; inside, land is a sparse stipple, so that pins and names stand out even
/// without colour.
enum LandOutline {
    /// The stipple kept inside land: dot 2 of every cell (`⠂`), one dot in eight.
    static let stipple: UInt8 = 0x02

    /// Per cell, the land dots that touch water (up, down, left or right). The view's edges
    /// count as land, so a coast is never drawn along them.
    static func coast(of masks: [UInt8], width: Int, height: Int) -> [UInt8] {
        var coast = [UInt8](repeating: 0, count: masks.count)
        masks.withUnsafeBufferPointer { m in
            func isLand(_ x: Int, _ y: Int) -> Bool {
                guard x >= 0, y >= 0, x < width * 2, y < height * 4 else { return true }
                return m[(y >> 2) * width + (x >> 1)] & LandRasterizer.dotBits[x & 1][y & 3] != 0
            }
            for row in 0..<height {
                for column in 0..<width {
                    let index = row * width + column
                    let mask = m[index]
                    guard mask != 0 else { continue }
                    if mask == 0xFF && (column == 0 || m[index - 1] == 0xFF)
                        && (column == width - 1 || m[index + 1] == 0xFF)
                        && (row == 0 || m[index - width] == 0xFF) && (row == height - 1 || m[index + width] == 0xFF)
                    {
                        continue
                    }
                    var result: UInt8 = 0
                    for dx in 0..<2 {
                        for dy in 0..<4 where mask & LandRasterizer.dotBits[dx][dy] != 0 {
                            let x = column * 2 + dx
                            let y = row * 4 + dy
                            if !isLand(x - 1, y) || !isLand(x + 1, y) || !isLand(x, y - 1) || !isLand(x, y + 1) {
                                result |= LandRasterizer.dotBits[dx][dy]
                            }
                        }
                    }
                    coast[index] = result
                }
            }
        }
        return coast
    }
}
