import Foundation

/// The few escape sequences the app sends outside the cell grid: a clipboard write (OSC 52) and
/// a hyperlink (OSC 8). Built here, from text that is already clean (`SafeText` + `LinkPolicy`):
/// anything below U+0020, DEL and C1 is dropped again, so no sequence can be cut short or
/// extended by its payload.
public enum TerminalEscape {
    /// `ESC ] 52 ; c ; <base64> BEL`: puts `text` on the system clipboard. Inside tmux
    /// (`insideTmux`) the same sequence is followed by a copy wrapped in tmux's passthrough DCS
    /// (`ESC P tmux; … ESC \`, inner ESCs doubled): tmux with `set-clipboard on` takes the first
    /// into its buffer (and passes it on to the outer terminal), tmux with `allow-passthrough on`
    /// hands the second to the outer terminal; with neither, tmux drops both.
    public static func clipboard(_ text: String, insideTmux: Bool) -> String {
        let payload = Data(printable(text).utf8).base64EncodedString()
        let plain = "\u{1B}]52;c;\(payload)\u{07}"
        guard insideTmux else { return plain }
        let doubled = plain.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}")
        return plain + "\u{1B}Ptmux;\(doubled)\u{1B}\\"
    }

    /// `ESC ] 8 ; ; <url> ESC \ <text> ESC ] 8 ; ; ESC \`: `text` as a link to `url`.
    public static func hyperlink(_ url: String, text: String) -> String {
        "\u{1B}]8;;\(printable(url))\u{1B}\\\(printable(text))\u{1B}]8;;\u{1B}\\"
    }

    /// `text` without control characters (C0, DEL, C1).
    static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }))
    }
}
