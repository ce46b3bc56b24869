import SafeText
import ViewModels

/// The "Go to" prompt (`:`), drawn at the top of the pane: what is typed with its caret, then
/// the completions, the chosen one in reverse video (and marked `>`, which accessible mode and a
/// monochrome terminal can read). Every text is cleaned again here: classmates' names and places
/// come from the network.
public enum GoToOverlay {
    /// Draws `prompt` over the top of `rect`; returns no hotspots (keys choose).
    @discardableResult
    public static func render(_ buffer: inout Buffer, prompt: GoToPrompt, in rect: Rect, ascii: Bool = false) -> [Hotspot] {
        let width = min(64, rect.width - 2)
        guard width >= 20, rect.height >= 5 else { return [] }
        let lines = max(1, prompt.completions.count)
        let box = Rect(x: rect.x + (rect.width - width) / 2, y: rect.y, width: width, height: min(rect.height, lines + 3))
        buffer.fill(box)
        buffer.box(box, style: .accent, title: "Go to", ascii: ascii)
        let inner = box.width - 4
        let caret = ascii ? "_" : "▏"
        buffer.put(
            "Go to: " + SafeText.clean(prompt.text) + caret, x: box.x + 2, y: box.y + 1, style: .bold, maxWidth: inner)
        guard !prompt.completions.isEmpty else {
            let hint =
                prompt.text.isEmpty
                ? "a city, country, US state or classmate" : "nothing found by that name"
            buffer.put(hint, x: box.x + 2, y: box.y + 2, style: .dim, maxWidth: inner)
            return []
        }
        for (index, completion) in prompt.completions.enumerated() where index + 2 < box.height - 1 {
            let y = box.y + 2 + index
            let chosen = index == prompt.chosen
            let style = chosen ? Style(bold: true, reverse: true) : Style.plain
            buffer.fill(Rect(x: box.x + 1, y: y, width: box.width - 2, height: 1), style: style)
            let kind = SafeText.clean(completion.kind)
            let kindWidth = min(SafeText.width(kind), inner / 2)
            buffer.put(
                (chosen ? "> " : "  ") + SafeText.clean(completion.title), x: box.x + 1, y: y, style: style,
                maxWidth: box.width - 4 - kindWidth)
            buffer.put(
                kind, x: box.x + box.width - 2 - kindWidth, y: y, style: chosen ? style : .dim, maxWidth: kindWidth)
        }
        return []
    }
}
