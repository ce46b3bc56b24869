import Foundation

/// A picture as a terminal shows one inline: the escape sequences of an image protocol around a
/// PNG (Docs/MapAndGeocoder.md, "Pixels").
public enum TerminalImage {
    /// Kitty's graphics protocol (kitty, WezTerm, Ghostty, Konsole): the PNG (`f=100`) sent and
    /// shown at once (`a=T`), in base64 chunks of at most 4,096 bytes, placed over `columns × rows`
    /// cells; `id` names it, so that it can be deleted (`a=d,d=I,i=id`). `underText` puts it
    /// below the cells' text (`z=-1`), and the cursor stays where it was (`C=1`).
    public static func kitty(png: [UInt8], columns: Int, rows: Int, id: Int = 1, underText: Bool = false) -> String {
        let payload = Array(Data(png).base64EncodedData())
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + payload.count / 4096 * 16 + 96)
        var start = 0
        repeat {
            let end = min(start + 4096, payload.count)
            let more = end < payload.count ? 1 : 0
            let keys =
                start == 0
                ? "a=T,f=100,t=d,i=\(id),q=2,c=\(columns),r=\(rows)\(underText ? ",z=-1,C=1" : ""),m=\(more)" : "m=\(more)"
            out += Array("\u{1B}_G\(keys);".utf8)
            out += payload[start..<end]
            out += [0x1B, 0x5C]
            start = end
        } while start < payload.count
        return String(decoding: out, as: UTF8.self)
    }

    /// Deletes the Kitty image `id` and frees its data.
    public static func kittyDelete(id: Int = 1) -> String { "\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\" }

    /// iTerm2's inline images (iTerm2, WezTerm, VS Code): the whole file in one OSC 1337,
    /// stretched over `columns × rows` cells.
    public static func iterm(png: [UInt8], columns: Int, rows: Int) -> String {
        "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(columns);height=\(rows);preserveAspectRatio=0:\(base64(png))\u{07}"
    }

    /// The PNG inside a Kitty or iTerm2 sequence this type wrote (the tests' way to look at it).
    public static func payload(of text: String) -> [UInt8]? {
        var encoded = ""
        if text.hasPrefix("\u{1B}_G") {
            for chunk in text.components(separatedBy: "\u{1B}\\") where chunk.hasPrefix("\u{1B}_G") {
                guard let semicolon = chunk.firstIndex(of: ";") else { return nil }
                encoded += chunk[chunk.index(after: semicolon)...]
            }
        } else if text.hasPrefix("\u{1B}]1337;File="), let colon = text.firstIndex(of: ":"), text.hasSuffix("\u{07}") {
            encoded = String(text[text.index(after: colon)..<text.index(before: text.endIndex)])
        } else {
            return nil
        }
        return decodeBase64(encoded)
    }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    static func decodeBase64(_ text: String) -> [UInt8]? { Data(base64Encoded: text).map(Array.init) }
}
