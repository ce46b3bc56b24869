import SafeText

/// Modal boxes drawn over a screen: alerts, the help overlay, toasts. Alert and toast texts are
/// cleaned here (`SafeText.clean`), the one place they become cells: they often carry a server's
/// or a geocoder's words.
public enum Overlay {
    /// A centred box with a title, the wrapped message, and `[ OK ]`. Returns the OK button.
    @discardableResult
    public static func alert(
        _ buffer: inout Buffer, title: String, message: String, button: String = "OK", ascii: Bool = false
    ) -> Rect {
        let width = min(max(40, buffer.width / 2), buffer.width - 2)
        let lines = TextWrap.lines(SafeText.clean(message), width: width - 4)
        let height = min(lines.count + 5, buffer.height)
        let box = buffer.area.centered(width: width, height: height)
        buffer.fill(box)
        buffer.box(box, style: Style(foreground: .red, bold: true), title: title, ascii: ascii)
        for (index, line) in lines.prefix(max(0, box.height - 5)).enumerated() {
            buffer.put(line, x: box.x + 2, y: box.y + 2 + index, maxWidth: box.width - 4)
        }
        let label = "[ \(button) ]"
        return Controls.button(
            &buffer, x: box.x + (box.width - label.count) / 2, y: box.maxY - 2, title: button, focused: true)
    }

    /// The `?` overlay: keys and what they do, two columns.
    public static func help(_ buffer: inout Buffer, lines: [(keys: String, help: String)], ascii: Bool = false) {
        let width = min(64, buffer.width - 2)
        let height = min(lines.count + 4, buffer.height)
        let box = buffer.area.centered(width: width, height: height)
        buffer.fill(box)
        buffer.box(box, style: .accent, title: "Keys", ascii: ascii)
        for (index, line) in lines.prefix(max(0, box.height - 4)).enumerated() {
            let y = box.y + 1 + index
            buffer.put(line.keys, x: box.x + 2, y: y, style: .bold, maxWidth: 16)
            buffer.put(line.help, x: box.x + 19, y: y, maxWidth: box.width - 21)
        }
        buffer.putCentered("Esc or ? closes", in: box.row(box.height - 2).inset(0), style: .dim)
    }

    /// A one-line note at the bottom right, above the footer.
    public static func toast(_ buffer: inout Buffer, text: String) {
        guard buffer.height > 3 else { return }
        let shown = " \(SafeText.clean(text)) "
        let width = min(SafeText.width(shown), buffer.width)
        buffer.put(
            // The terminal's own colours reversed: readable on any background, in any theme and
            // at any depth (a fixed yellow was grey on gold in the dark theme, white on yellow in
            // the light one).
            shown, x: buffer.width - width, y: buffer.height - 2, style: Style(bold: true, reverse: true),
            maxWidth: width)
    }
}
