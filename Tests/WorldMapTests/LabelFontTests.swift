import Testing

@testable import WorldMap

/// The names on pictures: Terminus Bold 8×16 glyphs for Latin, Greek and Cyrillic names, none
/// for what the font does not cover, written in a cell with a halo, never outside it.
@Suite struct LabelFontTests {
    @Test func theFontCoversTheMapsNamesAndNothingElse() throws {
        for character in "AZaz09ãéøßŁłçÇ-.'Ωж" {
            #expect(LabelFont.glyph(character)?.contains { $0 != 0 } == true, "\(character)")
        }
        #expect(LabelFont.glyph(" ") == ArraySlice(repeating: 0, count: 16))
        for character in ["😀", "東", "e\u{301}", "\u{1B}"] as [Character] { #expect(LabelFont.glyph(character) == nil) }
        // "I" is a vertical bar in the middle columns.
        let i = try #require(LabelFont.glyph("I"))
        #expect(i.filter { $0 & 0x18 != 0 }.count >= 8)
    }

    @Test func aCharacterIsWrittenInsideItsCellOverAHalo() {
        let (sea, ink, halo) = (RGB(0, 0, 100), RGB(255, 255, 0), RGB(0, 0, 0))
        var image = RGBAImage(width: 30, height: 40, fill: sea)
        let wrote = image.write("W", x: 10, y: 10, cell: (10, 20), ink, halo: halo)
        #expect(wrote)
        var seen: Set<RGB> = []
        for y in 0..<40 {
            for x in 0..<30 {
                let color = image.color(x: x, y: y)
                if let color, color != sea { seen.insert(color) }
                if !(10..<20).contains(x) || !(10..<30).contains(y) { #expect(color == sea, "(\(x), \(y)) outside the cell") }
            }
        }
        #expect(seen == [ink, halo])
        let refused = !image.write("😀", x: 0, y: 0, cell: (10, 20), ink, halo: halo)
        #expect(refused)
        // A cell smaller than the glyph clips it; a cell twice the size doubles it.
        var small = RGBAImage(width: 6, height: 10, fill: sea)
        let clipped = small.write("M", x: 0, y: 0, cell: (6, 10), ink, halo: halo)
        #expect(clipped)
        var large = RGBAImage(width: 20, height: 40, fill: sea)
        large.write("I", x: 0, y: 0, cell: (20, 40), ink, halo: halo)
        let inked = (0..<40).flatMap { y in (0..<20).filter { large.color(x: $0, y: y) == ink } }.count
        let single = { () -> Int in
            var one = RGBAImage(width: 10, height: 20, fill: sea)
            one.write("I", x: 0, y: 0, cell: (10, 20), ink, halo: halo)
            return (0..<20).flatMap { y in (0..<10).filter { one.color(x: $0, y: y) == ink } }.count
        }()
        #expect(inked == single * 4)
    }
}
