/// Shown instead of any screen when the terminal is smaller than `minimum`.
public enum TooSmallScreen {
    public static let minimum = (width: 50, height: 14)

    public static func fits(width: Int, height: Int) -> Bool {
        width >= minimum.width && height >= minimum.height
    }

    public static func render(width: Int, height: Int) -> Frame {
        var buffer = Buffer(width: width, height: height)
        let lines = [
            "Terminal too small", "\(width)×\(height), needs \(minimum.width)×\(minimum.height)",
            "Enlarge it, or q to quit",
        ]
        let top = max(0, (height - lines.count) / 2)
        for (index, line) in lines.enumerated() where top + index < height {
            buffer.putCentered(
                line, in: Rect(x: 0, y: top + index, width: width, height: 1), style: index == 0 ? .bold : .plain)
        }
        return Frame(buffer: buffer)
    }
}
