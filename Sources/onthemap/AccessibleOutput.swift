import ArgumentParser
import Foundation
import OnTheMapConfig
import OnTheMapModels
import SafeText
import TerminalUI
import ViewModels
import WorldMap

/// `--[no-]accessible` for `list`, `map` and `post`: output that reads well aloud (whole
/// sentences, no column padding, no Braille or box drawing). Like the app's, it also comes from
/// `ACCESSIBLE=1` or `accessible = true` in the settings file.
struct AccessibleOption: ParsableArguments {
    @Flag(
        inversion: .prefixedNo,
        help: "Output that reads well aloud: sentences instead of columns and maps (also ACCESSIBLE=1).")
    var accessible: Bool?

    var isOn: Bool { AppSettings.resolve(SettingsFlags(accessible: accessible)).accessible.value }
}

enum AccessibleOutput {
    /// `list`: a count, then one sentence a classmate, newest first as the server gave them.
    static func list(_ rows: [StudentInformation], now: Date = Date()) -> String {
        var lines = ["\(MapWords.count(rows.count)), newest first."]
        for (index, row) in rows.enumerated() {
            let link = SafeText.clean(row.mediaURL)
            lines.append(
                "\(index + 1). \(MapWords.describe(row, viewer: Viewer(), home: nil, now: now))"
                    + (link.isEmpty ? ", no link." : ", link \(link)."))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `map`: the view told in words, as the app's Map pane says it.
    static func map(_ rows: [StudentInformation], viewport: Viewport, now: Date = Date()) -> String {
        MapWords.lines(viewport: viewport, rows: rows, selectedID: nil, viewer: Viewer(), home: nil, now: now)
            .map { $0.text.hasPrefix("  ") ? String($0.text.dropFirst(2)) : $0.text }
            .joined(separator: "\n") + "\n"
    }
}
