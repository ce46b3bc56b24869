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
}
