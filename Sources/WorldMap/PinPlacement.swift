/// Where each pin falls on screen, and per cell how many pins and the strongest style.
struct PinPlacement {
    /// Cell index of every pin, or -1 when it is off screen or not drawable.
    var cellOfPin: [Int32]
    var counts: [Int32]
    var styles: [Int8]

    init(viewport: Viewport, pins: [MapPin]) {
        let width = viewport.width
        let height = viewport.height
        cellOfPin = [Int32](repeating: -1, count: pins.count)
        counts = [Int32](repeating: 0, count: width * height)
        styles = [Int8](repeating: 0, count: width * height)
        for (index, pin) in pins.enumerated() {
            guard let cell = viewport.cell(latitude: pin.latitude, longitude: pin.longitude) else { continue }
            let cellIndex = cell.row * width + cell.column
            cellOfPin[index] = Int32(cellIndex)
            counts[cellIndex] += 1
            styles[cellIndex] = max(styles[cellIndex], Int8(pin.style.rawValue))
        }
    }
}
