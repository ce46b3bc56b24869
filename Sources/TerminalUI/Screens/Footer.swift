/// The bottom line: key hints on the left, status on the right.
public enum Footer {
    public static func render(_ buffer: inout Buffer, text: String, status: String) {
        guard buffer.height > 0 else { return }
        let y = buffer.height - 1
        let bar = Style(reverse: true)
        buffer.fill(Rect(x: 0, y: y, width: buffer.width, height: 1), style: bar)
        let statusWidth = status.isEmpty ? 0 : min(status.count + 1, buffer.width * 2 / 3)
        buffer.put(" " + text, x: 0, y: y, style: bar, maxWidth: buffer.width - statusWidth - 1)
        if !status.isEmpty {
            buffer.put(status + " ", x: buffer.width - statusWidth, y: y, style: bar, maxWidth: statusWidth)
        }
    }
}
