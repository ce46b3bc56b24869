import Foundation
import OnTheMapModels
import SafeText
import ViewModels

/// How the table and the cards dress a row's data: recency as a colour, the link's host picked
/// out, the sort order named in a header.
enum RowLook {
    /// Green within the hour (bold) and the day, yellow within the week, plain within two
    /// months, dim after.
    static func recency(_ date: Date?, now: Date) -> Style {
        guard let date else { return .dim }
        let seconds = now.timeIntervalSince(date)
        switch seconds {
        case ..<3600: return Style(foreground: .green, bold: true)
        case ..<86_400: return Style(foreground: .green)
        case ..<(86_400 * 7): return Style(foreground: .yellow)
        case ..<(86_400 * 60): return .plain
        default: return .dim
        }
    }

    /// A row that arrived live a moment ago (with its `new` tag in text).
    static let newTag = Style(foreground: .green, bold: true)

    /// The row's style with a look laid over it (colours and weight; the row keeps its
    /// background and the selection's reverse). The selection keeps the terminal's own colours,
    /// reversed: a look's colour behind the background's as ink was unreadable (white on green
    /// on a light terminal).
    static func over(_ row: Style, _ look: Style) -> Style {
        Style(
            foreground: row.reverse ? row.foreground : look.foreground ?? row.foreground, background: row.background,
            bold: look.bold || row.bold, reverse: row.reverse, dim: look.dim && !row.reverse)
    }

    /// Writes the cleaned link at (x, y) in `width` columns: the host in bold cyan, the rest in
    /// the row's style; a link `LinkPolicy` refuses is dimmed, with nothing highlighted.
    static func putLink(_ raw: String, in buffer: inout Buffer, x: Int, y: Int, width: Int, style: Style) {
        let text = SafeText.clean(raw)
        guard case .open(let url) = LinkPolicy.decide(raw), let host = URL(string: url)?.host, !host.isEmpty else {
            buffer.put(text, x: x, y: y, style: over(style, .dim), maxWidth: width)
            return
        }
        let shown = SafeText.truncate(text, toWidth: width)
        buffer.put(shown, x: x, y: y, style: style, maxWidth: width)
        guard let range = shown.range(of: host, options: .caseInsensitive) else { return }
        let before = shown[..<range.lowerBound].unicodeScalars.reduce(0) { $0 + SafeText.width(of: $1) }
        buffer.put(
            String(shown[range]), x: x + before, y: y, style: over(style, Style(foreground: .cyan, bold: true)),
            maxWidth: width - before)
    }

    /// How a hidden row is marked in words (not only in colour): before its name in the table,
    /// the cards and the map's card. Only its owner and moderators are sent hidden rows.
    static func hiddenMark(_ row: StudentInformation) -> String { row.hidden ? "[hidden] " : "" }

    /// "hidden: the reason", cleaned, for the cards and the map's card; empty for a shown row.
    static func hiddenNote(_ row: StudentInformation) -> String {
        guard row.hidden else { return "" }
        let reason = SafeText.clean(row.hiddenReason ?? "").trimmingCharacters(in: .whitespaces)
        return reason.isEmpty ? "hidden" : "hidden: \(reason)"
    }

    /// A column title with the sort marker when the table is in its order.
    static func title(_ title: String, sortedBy order: TableSort?, current: TableSort, ascii: Bool) -> String {
        order == current ? title + (ascii ? " v" : " ▼") : title
    }

    /// "sorted by name": what `s` has chosen, for the cards pane's first line.
    static func sortLine(_ order: TableSort, hasHome: Bool) -> String {
        let text = "sorted by \(order.rawValue) (s)"
        return order == .distance && !hasHome ? text + " · post your place to measure distances" : text
    }
}
