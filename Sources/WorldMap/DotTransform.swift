/// Where hundredths of a degree land in a viewport's dot raster (2×4 dots a cell), shared by the
/// land fill and the line drawing so that borders sit exactly on the land they divide.
struct DotTransform {
    let dotsWide: Int
    let dotsHigh: Int
    /// Dots per hundredth of a degree, across and down.
    let scaleX: Double
    let scaleY: Double
    let originX: Double
    let originY: Double
    /// The last dot row drawn (the world view crops Antarctica below it).
    let lastRow: Int
    /// Copies of the world (in hundredths of a degree: -72000…72000) that overlap the view.
    let offsets: [Int]
    let region: MapRegion
    /// The view's latitude band in hundredths of a degree, one unit of margin each side.
    let minLatitude: Int
    let maxLatitude: Int

    init(viewport: Viewport, cropSouth: Bool) {
        dotsWide = viewport.width * 2
        dotsHigh = viewport.height * 4
        scaleX = 1 / (viewport.degreesPerColumn / 2 * 100)
        scaleY = 1 / (viewport.degreesPerRow / 4 * 100)
        originX = Double(dotsWide) / 2 - viewport.centerLongitude * 100 * scaleX
        originY = Double(dotsHigh) / 2 + viewport.centerLatitude * 100 * scaleY
        var last = dotsHigh - 1
        if cropSouth {
            last = min(last, Int((originY - Viewport.worldSouth * 100 * scaleY).rounded(.down)))
        }
        lastRow = last
        region = viewport.visibleRegion
        var offsets: [Int] = []
        for k in -2...2 {
            let shift = Double(k * 360)
            if region.minLongitude < 180 + shift && region.maxLongitude > -180 + shift { offsets.append(k * 36000) }
        }
        self.offsets = offsets
        minLatitude = Int((region.minLatitude * 100).rounded(.down)) - 1
        maxLatitude = Int((region.maxLatitude * 100).rounded(.up)) + 1
    }

    /// The offsets at which a box (hundredths of a degree) is in view.
    func offsets(forBox box: (Int16, Int16, Int16, Int16)) -> [Int] {
        guard Int(box.3) >= minLatitude, Int(box.2) <= maxLatitude else { return [] }
        return offsets.filter { offset in
            Double(Int(box.1) + offset) / 100 >= region.minLongitude
                && Double(Int(box.0) + offset) / 100 <= region.maxLongitude
        }
    }
}
