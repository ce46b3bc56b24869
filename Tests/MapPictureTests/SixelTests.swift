import Foundation
import Launcher
import MapPicture
import TerminalUI
import Testing
import WorldMap

/// Sixel pictures decoded back with libsixel's `sixel2png` (`make test` installs libsixel-bin):
/// every pixel a person would see, compared with the picture drawn.
@Suite struct SixelTests {
    /// `sixel` decoded by sixel2png: its pixels.
    static func decoded(_ sixel: [UInt8]) throws -> RGBAImage {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sixel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("picture.six")
        let output = folder.appendingPathComponent("picture.png")
        try Data(sixel).write(to: input)
        let decode = try LaunchedProcess.runBlocking(
            URL(fileURLWithPath: "/usr/bin/sixel2png"), ["-i", input.path, "-o", output.path])
        #expect(decode.status == 0, "\(decode.stderr)")
        return try PNG.decode(Array(try Data(contentsOf: output)))
    }

    /// Within a step of Sixel's percent palette.
    static func near(_ a: RGB?, _ b: RGB?) -> Bool {
        guard let a, let b else { return false }
        return abs(Int(a.red) - Int(b.red)) <= 2 && abs(Int(a.green) - Int(b.green)) <= 2 && abs(Int(a.blue) - Int(b.blue)) <= 2
    }

    /// The world with pins, in each theme, at a height that is not a multiple of a band (six
    /// rows): each pixel decodes to its own colour.
    @Test(arguments: Theme.Name.allCases) func theMapDecodesPixelForPixel(theme: Theme.Name) throws {
        let viewport = PixelMapRenderer.viewport(pixelWidth: 600, pixelHeight: 302)
        let image = PixelMapRenderer().render(viewport, pins: PixelMapTests.pins, palette: MapPalette.pixels(theme))
        let sixel = Sixel.encode(image)
        #expect(sixel.starts(with: Array("\u{1B}P0;1;0q\"1;1;\(image.width);\(image.height)".utf8)))
        #expect(sixel.suffix(2) == [0x1B, 0x5C] && sixel[sixel.count - 3] != UInt8(ascii: "-"), "no band after the last")
        let seen = try Self.decoded(sixel)
        #expect(seen.width == image.width && seen.height >= image.height)
        var wrong = 0
        for y in 0..<image.height {
            for x in 0..<image.width where !Self.near(seen.color(x: x, y: y), image.color(x: x, y: y)) { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) pixels decode to another colour")
    }

    /// Transparent pixels (the holes under a modal) are left unset: sixel2png shows them as the
    /// background, never as a colour of the picture; a picture of more than 256 colours goes
    /// through a fixed palette.
    @Test func transparentPixelsStayUnsetAndManyColoursAreQuantised() throws {
        var image = RGBAImage(width: 40, height: 13, fill: RGB(200, 30, 30))
        image.clear(cells: [false, true], columns: 2, cell: (width: 20, height: 13))
        let seen = try Self.decoded(Sixel.encode(try #require(IndexedImage(exactly: image))))
        #expect(Self.near(seen.color(x: 3, y: 12), RGB(200, 30, 30)))
        #expect(!Self.near(seen.color(x: 30, y: 5), RGB(200, 30, 30)), "the hole is not painted")
        var ramp = RGBAImage(width: 300, height: 6, fill: RGB(0, 0, 0))
        for x in 0..<300 {
            for y in 0..<6 { ramp.pixels.replaceSubrange((y * 300 + x) * 4..<(y * 300 + x) * 4 + 3, with: [UInt8(x % 256), UInt8(x / 2), 90]) }
        }
        #expect(IndexedImage(exactly: ramp) == nil, "300 colours")
        let quantised = IndexedImage(quantizing: ramp)
        #expect(quantised.colorCount <= 256)
        let back = try Self.decoded(Sixel.encode(quantised))
        let pixel = try #require(back.color(x: 200, y: 3))
        #expect(abs(Int(pixel.red) - 200) <= 26 && abs(Int(pixel.green) - 100) <= 22 && abs(Int(pixel.blue) - 90) <= 26)
    }

    /// A terminal with few colour registers (16 on xterm's VT340; 6 here, fewer than the map's)
    /// gets a picture in as many: registers below that only (a higher one is another register
    /// there), the most used colours — sea and land — exactly, every other pixel the nearest of
    /// them, holes still unset.
    @Test func aPictureFitsTheTerminalsColourRegisters() throws {
        let viewport = PixelMapRenderer.viewport(pixelWidth: 600, pixelHeight: 300)
        let palette = MapPalette.pixels(.dark)
        var image = PixelMapRenderer().render(viewport, pins: PixelMapTests.pins, palette: palette)
        image.clear(cells: [false, true], columns: 2, cell: (width: 300, height: 300))
        try #require(image.colorCount > 6, "the map has more colours than the registers (\(image.colorCount))")
        let sixel = try ImageProtocol.sixel.encode(image.reduced(toColors: 6), columns: 60, rows: 15, cell: (10, 20))
        let registers = sixel.matches(of: /#(\d+);2;/).compactMap { Int($0.1) }
        #expect(!registers.isEmpty && registers.allSatisfy { $0 < 6 }, "\(registers)")
        #expect(Set(registers).count == registers.count, "each register defined once")
        let seen = try Self.decoded(Array(sixel.utf8))
        let atlantic = try #require(viewport.position(latitude: 30, longitude: -40))
        #expect(Self.near(seen.color(x: Int(atlantic.column * 2), y: Int(atlantic.row * 4)), palette.sea))
        let asia = try #require(viewport.position(latitude: 50, longitude: 100))
        #expect(!Self.near(seen.color(x: Int(asia.column * 2), y: Int(asia.row * 4)), palette.land), "in the hole")
        let brazil = try #require(viewport.position(latitude: -10, longitude: -55))
        #expect(Self.near(seen.color(x: Int(brazil.column * 2), y: Int(brazil.row * 4)), palette.land))
        let reduced = image.reduced(toColors: 6)
        #expect(reduced.colorCount <= 7, "6 colours and transparency")
        #expect(image.reduced(toColors: 256).colormap == image.colormap, "a picture that fits is left as it is")
    }
}
