/// The character and style of a cell from its dot masks: land, coast, country and state border,
/// a picked-out country's outline.
enum LandGlyph {
    static func cell(
        land: UInt8, coast: UInt8, border: UInt8, admin1: UInt8, outline: UInt8 = 0, mode: MapRenderer.Mode
    ) -> MapCell {
        let style: CellStyle =
            outline != 0
            ? .outline
            : border != 0 ? .border : admin1 != 0 ? .adminBorder : coast != 0 ? .coast : land != 0 ? .land : .water
        switch mode {
        case .braille:
            // The stipple only where no line runs, so that lines read as lines.
            let lines = coast | border | admin1 | outline
            let mask = lines != 0 ? lines : land & LandOutline.stipple
            guard mask != 0 else { return MapCell(character: " ", style: style) }
            return MapCell(character: Character(Unicode.Scalar(0x2800 + UInt32(mask)) ?? " "), style: style)
        case .ascii:
            switch style {
            case .outline: return MapCell(character: line(outline), style: style)
            case .border: return MapCell(character: line(border), style: style)
            case .adminBorder: return MapCell(character: ";", style: style)
            case .coast: return MapCell(character: ":", style: style)
            case .land: return MapCell(character: ".", style: style)
            default: return MapCell(character: " ", style: style)
            }
        }
    }

    /// `-`, `|`, `/` or `\` for the dots of a line in one cell.
    static func line(_ mask: UInt8) -> Character {
        var rows = Set<Int>()
        var columns = Set<Int>()
        var topColumn = 0
        var bottomColumn = 0
        var top = 4
        var bottom = -1
        for x in 0..<2 {
            for y in 0..<4 where mask & LandRasterizer.dotBit(x, y) != 0 {
                rows.insert(y)
                columns.insert(x)
                if y < top { (top, topColumn) = (y, x) }
                if y > bottom { (bottom, bottomColumn) = (y, x) }
            }
        }
        if columns.count == 1 && rows.count > 1 { return "|" }
        if rows.count <= 2 { return "-" }
        if topColumn == bottomColumn { return "|" }
        return topColumn < bottomColumn ? "\\" : "/"
    }
}
