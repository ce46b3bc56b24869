import SafeText

/// Something on screen the mouse can click.
public enum HotTarget: Sendable, Hashable {
    case field(Int)
    case button(Button)
    case pane(Int)
    case row(String)
}

/// A clickable rectangle and what it stands for.
public struct Hotspot: Sendable, Hashable {
    public var rect: Rect
    public var target: HotTarget
}

/// A drawn screen: the cells, and where the clickable things are.
public struct Frame: Sendable, Equatable {
    public var buffer: Buffer
    public var hotspots: [Hotspot] = []
    /// Where the terminal cursor goes: the selected row, the focused field or button (nil: no
    /// opinion). `AppController.placeCursor` sets it; screen readers follow it.
    public var cursor: CursorSpot?
    /// The maps drawn as pictures, when the terminal shows images (`PictureScene`): the Map
    /// pane's, the posting preview's over it. Their holes are set once the whole frame is drawn
    /// (`AppController.frame`).
    public var pictures: [PictureScene] = []

    public init(buffer: Buffer, hotspots: [Hotspot] = []) {
        self.buffer = buffer
        self.hotspots = hotspots
    }

    /// The target under (x, y), topmost first.
    public func target(atX x: Int, y: Int) -> HotTarget? {
        hotspots.last { $0.rect.contains(x: x, y: y) }?.target
    }
}

/// Text fields and buttons.
public enum Controls {
    /// `Label  [value______]`: the value masked with • when `masked`, underlined when focused,
    /// flashed (reverse, red) when it was refused as empty, dimmed when the form is busy.
    public static func textField(
        _ buffer: inout Buffer, x: Int, y: Int, width: Int, label: String, labelWidth: Int, value: String,
        masked: Bool = false, focused: Bool, flashed: Bool = false, dimmed: Bool = false
    ) -> Rect {
        buffer.put(label, x: x, y: y, style: focused ? .bold : .plain, maxWidth: labelWidth)
        let fieldX = x + labelWidth
        let fieldWidth = max(1, width - labelWidth)
        var style = Style(underline: true)
        if focused { style.bold = true }
        if flashed { style = Style(foreground: .red, bold: true, reverse: true) }
        if dimmed { style.dim = true }
        let shown = masked ? String(repeating: "•", count: value.count) : SafeText.clean(value)
        // Keep the end of long input visible, with room for the cursor.
        var visible = shown
        while SafeText.width(visible) > fieldWidth - 1, !visible.isEmpty { visible.removeFirst() }
        buffer.fill(Rect(x: fieldX, y: y, width: fieldWidth, height: 1), style: style)
        let used = buffer.put(visible, x: fieldX, y: y, style: style, maxWidth: fieldWidth)
        if focused && !dimmed { buffer[fieldX + used, y] = Cell("▏", style: style) }
        return Rect(x: x, y: y, width: width, height: 1)
    }

    /// `[ Title ]`, reverse when focused. Returns its rectangle.
    @discardableResult
    public static func button(
        _ buffer: inout Buffer, x: Int, y: Int, title: String, focused: Bool, dimmed: Bool = false
    )
        -> Rect
    {
        let text = "[ \(title) ]"
        var style = focused ? Style(bold: true, reverse: true) : Style.bold
        if dimmed { style.dim = true }
        let used = buffer.put(text, x: x, y: y, style: style)
        return Rect(x: x, y: y, width: used, height: 1)
    }

    /// lazygit's spinner: `●∙∙ ∙●∙ ∙∙● ∙●∙`, a frame every 180 ms.
    public static func spinner(milliseconds: Int) -> String {
        let frames = ["●∙∙", "∙●∙", "∙∙●", "∙●∙"]
        return frames[(milliseconds / 180) % frames.count]
    }
}
