/// A colour, 8 bits a channel.
public struct RGB: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// What a picture of the map is drawn on: pixels to read and paint, cells to clear.
public protocol PixelCanvas {
    var width: Int { get }
    var height: Int { get }
    /// The colour at (`x`, `y`); `nil` outside the picture.
    func color(x: Int, y: Int) -> RGB?
    /// The opacity at (x, y): 0 transparent, 255 opaque; `nil` outside the picture.
    func alpha(x: Int, y: Int) -> UInt8?
    /// Paints (x, y) opaque in `color`; nothing outside the picture.
    mutating func set(x: Int, y: Int, _ color: RGB)
    /// Makes the pixels of the cells flagged in `cells` (row by row, `columns` a row, each cell
    /// `cell` pixels) transparent.
    mutating func clear(cells: [Bool], columns: Int, cell: (width: Int, height: Int))
}

/// A picture: `width × height` pixels, RGBA, row by row from the top.
public struct RGBAImage: Sendable, Hashable, PixelCanvas {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, fill: RGB) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 255, count: width * height * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = fill.red
            pixels[index + 1] = fill.green
            pixels[index + 2] = fill.blue
        }
    }

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public func alpha(x: Int, y: Int) -> UInt8? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return pixels[(y * width + x) * 4 + 3]
    }

    public func color(x: Int, y: Int) -> RGB? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let index = (y * width + x) * 4
        return RGB(pixels[index], pixels[index + 1], pixels[index + 2])
    }

    public mutating func clear(cells: [Bool], columns: Int, cell: (width: Int, height: Int)) {
        guard columns > 0 else { return }
        for (index, hole) in cells.enumerated() where hole {
            let (left, top) = (index % columns * cell.width, index / columns * cell.height)
            for y in top..<min(height, top + cell.height) {
                let row = y * width * 4
                for x in left..<min(width, left + cell.width) { pixels[row + x * 4 + 3] = 0 }
            }
        }
    }

    public mutating func set(x: Int, y: Int, _ color: RGB) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let index = (y * width + x) * 4
        pixels[index] = color.red
        pixels[index + 1] = color.green
        pixels[index + 2] = color.blue
        pixels[index + 3] = 255
    }
}

/// The colours of a picture of the map: a theme's map palette as RGB (the caller derives it from
/// the one theme the cell map uses, so both look alike).
public struct PixelPalette: Sendable, Hashable {
    public var sea: RGB
    public var land: RGB
    public var coast: RGB
    public var border: RGB
    public var admin1: RGB
    public var outline: RGB
    /// The fill of a pin of each style (`PinStyle.allCases` order).
    public var pins: [RGB]
    /// The ring around every pin, so that it stands out on land and sea alike.
    public var pinEdge: RGB

    public init(sea: RGB, land: RGB, coast: RGB, border: RGB, admin1: RGB, outline: RGB, pins: [RGB], pinEdge: RGB) {
        self.sea = sea
        self.land = land
        self.coast = coast
        self.border = border
        self.admin1 = admin1
        self.outline = outline
        self.pins = pins
        self.pinEdge = pinEdge
    }

    func pin(_ style: PinStyle) -> RGB { pins.indices.contains(style.rawValue) ? pins[style.rawValue] : pins.first ?? pinEdge }
}

/// The map as pixels: the same view, land, coasts, borders and state lines as `MapRenderer`'s
/// cells — one dot of its 2×4-dot raster a pixel, so the picture is `viewport.width × 2` by
/// `viewport.height × 4` — with land filled, and pins as round markers, a cluster larger with
/// its size, your own and the selected pin in their own colours and drawn last.
public struct PixelMapRenderer: Sendable {
    public var renderer: MapRenderer

    public init(renderer: MapRenderer = MapRenderer()) { self.renderer = renderer }

    /// The viewport whose dot raster is `width × height` pixels (cells of 2×4 pixels).
    public static func viewport(pixelWidth: Int, pixelHeight: Int) -> Viewport {
        Viewport.world(width: max(1, pixelWidth / 2), height: max(1, pixelHeight / 4))
    }

    public func render(_ viewport: Viewport, pins: [MapPin] = [], palette: PixelPalette) -> IndexedImage {
        let layers = renderer.layers(viewport, dashedAdmin1: false)
        let width = viewport.width * 2
        let height = viewport.height * 4
        // The palette's first entries, in this order: what the dot layers paint.
        let (sea, land, coast, border, admin1, outline): (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 1, 2, 3, 4, 5)
        let colormap = [palette.sea, palette.land, palette.coast, palette.border, palette.admin1, palette.outline].flatMap {
            (color: RGB) -> [UInt8] in [color.red, color.green, color.blue, 255]
        }
        // The picture's own bytes, written once (the sea first), a palette index a pixel; a large
        // picture's two halves of rows on two threads.
        let indexes = [UInt8](unsafeUninitializedCapacity: width * height) { out, initialized in
            layers.land.withUnsafeBufferPointer { landMasks in
                layers.coast.withUnsafeBufferPointer { coastMasks in
                    layers.borders.withUnsafeBufferPointer { borderMasks in
                        layers.admin1.withUnsafeBufferPointer { admin1Masks in
                            layers.outline.withUnsafeBufferPointer { outlineMasks in
                                func paint(cellRows: Range<Int>) {
                                    guard !cellRows.isEmpty else { return }
                                    let pixels = cellRows.lowerBound * 4 * width..<cellRows.upperBound * 4 * width
                                    UnsafeMutableBufferPointer(rebasing: out[pixels]).initialize(repeating: sea)
                                    for cellRow in cellRows {
                                        let rowBase = cellRow * 4 * width
                                        let cellBase = cellRow * viewport.width
                                        for cellColumn in 0..<viewport.width {
                                            let index = cellBase + cellColumn
                                            let landMask = landMasks[index]
                                            let lines = coastMasks[index] | borderMasks[index] | admin1Masks[index] | outlineMasks[index]
                                            guard landMask | lines != 0 else { continue }
                                            let base = rowBase + cellColumn * 2
                                            if landMask == 0xFF, lines == 0 {
                                                for dy in 0..<4 {
                                                    out[base + dy * width] = land
                                                    out[base + dy * width + 1] = land
                                                }
                                                continue
                                            }
                                            let masks = (
                                                landMask, coastMasks[index], borderMasks[index], admin1Masks[index], outlineMasks[index]
                                            )
                                            for dx in 0..<2 {
                                                for dy in 0..<4 {
                                                    let bit = LandRasterizer.dotBit(dx, dy)
                                                    let color: UInt8
                                                    if masks.4 & bit != 0 {
                                                        color = outline
                                                    } else if masks.2 & bit != 0 {
                                                        color = border
                                                    } else if masks.3 & bit != 0 {
                                                        color = admin1
                                                    } else if masks.1 & bit != 0 {
                                                        color = coast
                                                    } else if masks.0 & bit != 0 {
                                                        color = land
                                                    } else {
                                                        continue
                                                    }
                                                    out[base + dy * width + dx] = color
                                                }
                                            }
                                        }
                                    }
                                }
                                let middle = viewport.height / 2
                                TwoThreads.run(inParallel: viewport.width * viewport.height >= MapRenderer.parallelCells) {
                                    part in paint(cellRows: part == 0 ? 0..<middle : middle..<viewport.height)
                                }
                            }
                        }
                    }
                }
            }
            initialized = width * height
        }
        var image = IndexedImage(width: width, height: height, indexes: indexes, colormap: colormap)
        drawPins(pins, viewport: viewport, palette: palette, into: &image)
        return image
    }

    /// The radius of a lone pin's marker in pixels, for a picture of this size.
    public static func pinRadius(width: Int, height: Int) -> Double { max(4, Double(min(width, height)) / 160) }

    /// Pins whose markers would overlap (in one square of the marker's diameter) are one cluster,
    /// drawn as one marker at their mean position whose size grows with the count, in the colour
    /// of its highest style; higher styles are drawn last.
    private func drawPins(_ pins: [MapPin], viewport: Viewport, palette: PixelPalette, into image: inout IndexedImage) {
        let base = Self.pinRadius(width: image.width, height: image.height)
        let square = base * 2
        var clusters: [Int: (x: Double, y: Double, count: Int, style: PinStyle)] = [:]
        for pin in pins where pin.isDrawable {
            guard let p = viewport.position(latitude: pin.latitude, longitude: pin.longitude) else { continue }
            let (x, y) = (p.column * 2, p.row * 4)
            guard x >= 0, y >= 0, x < Double(image.width), y < Double(image.height) else { continue }
            let key = Int(y / square) * 65_536 + Int(x / square)
            var cluster = clusters[key] ?? (0, 0, 0, .normal)
            cluster = (cluster.x + x, cluster.y + y, cluster.count + 1, max(cluster.style, pin.style))
            clusters[key] = cluster
        }
        for cluster in clusters.values.sorted(by: { ($0.style, $0.count) < ($1.style, $1.count) }) {
            let count = Double(cluster.count)
            let radius = base * (cluster.count == 1 ? 1 : min(2.5, 1 + 0.35 * (count - 1).squareRoot()))
            let (x, y) = (cluster.x / count, cluster.y / count)
            disc(x: x, y: y, radius: radius + 1.5, palette.pinEdge, into: &image)
            disc(x: x, y: y, radius: radius, palette.pin(cluster.style), into: &image)
            if cluster.count > 1 {
                // The count, as the cell map writes it: 2–9, + for more.
                let glyph = cluster.count > 9 ? Self.plusGlyph : Self.digitGlyphs[cluster.count]
                let scale = max(1, Int(radius * 1.2 / 5))
                // Black on a light marker, white on a dark one (mono's greys).
                let fill = palette.pin(cluster.style)
                let luma = 299 * Int(fill.red) + 587 * Int(fill.green) + 114 * Int(fill.blue)
                let ink = luma < 110_000 ? RGB(255, 255, 255) : RGB(0, 0, 0)
                stamp(glyph, x: Int(x.rounded()) - 3 * scale / 2, y: Int(y.rounded()) - 5 * scale / 2, scale: scale,
                      ink, into: &image)
            }
        }
    }

    /// 3×5-pixel glyphs of the digits, a row a number (bit 2 the left pixel), for cluster counts.
    static let digitGlyphs: [[UInt8]] = [
        [7, 5, 5, 5, 7], [2, 6, 2, 2, 7], [7, 1, 7, 4, 7], [7, 1, 7, 1, 7], [5, 5, 7, 1, 1],
        [7, 4, 7, 1, 7], [7, 4, 7, 5, 7], [7, 1, 2, 2, 2], [7, 5, 7, 5, 7], [7, 5, 7, 1, 7],
    ]
    static let plusGlyph: [UInt8] = [0, 2, 7, 2, 0]

    private func stamp(_ glyph: [UInt8], x: Int, y: Int, scale: Int, _ color: RGB, into image: inout IndexedImage) {
        let color = image.index(of: color) ?? 0
        for (row, bits) in glyph.enumerated() {
            for column in 0..<3 where bits & (4 >> column) != 0 {
                for dy in 0..<scale {
                    for dx in 0..<scale { image.set(x: x + column * scale + dx, y: y + row * scale + dy, index: color) }
                }
            }
        }
    }

    private func disc(x: Double, y: Double, radius: Double, _ color: RGB, into image: inout IndexedImage) {
        let color = image.index(of: color) ?? 0
        let r2 = radius * radius
        for py in Int((y - radius).rounded(.down))...Int((y + radius).rounded(.up)) {
            for px in Int((x - radius).rounded(.down))...Int((x + radius).rounded(.up)) {
                let dx = Double(px) + 0.5 - x
                let dy = Double(py) + 0.5 - y
                if dx * dx + dy * dy <= r2 { image.set(x: px, y: py, index: color) }
            }
        }
    }
}
