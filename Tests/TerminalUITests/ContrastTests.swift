import AppTestSupport
import Foundation
import Testing
import ViewModels
import WorldMap

@testable import TerminalUI

/// Every character the Table and Cards panes, the help box and a toast draw — zebra rows, the
/// selection, the highlights — is readable in each theme on the background it is for: a WCAG
/// contrast of at least 4.5:1 (AA) between the colours xterm shows for it at 256 colours, the
/// terminal's own default colours standing in where a style names none. At 8 and 16 colours the
/// terminal's own palette decides a coloured letter's contrast, so there the text in the
/// terminal's own colour is checked on the stripes and the selection (the black-on-black rows
/// of a dark theme on xterm's white). Dim text is secondary on purpose, and left out; `auto`
/// picks the theme from the background (ThemeSetting).
@MainActor
struct ContrastTests {
    /// A terminal's default colours: xterm's reverse video (white on black) for `dark`, xterm's
    /// own defaults (black on white) for `light`.
    static let terminals: [(theme: Theme.Name, foreground: RGB, background: RGB)] = [
        (.dark, RGB(255, 255, 255), RGB(0, 0, 0)), (.dark, RGB(229, 229, 229), RGB(0, 0, 0)),
        (.dark, RGB(204, 204, 204), RGB(30, 30, 30)),
        (.light, RGB(0, 0, 0), RGB(255, 255, 255)), (.light, RGB(40, 40, 40), RGB(253, 246, 227)),
    ]

    func frames() -> [(String, Buffer)] {
        var frames: [(String, Buffer)] = []
        for pane in [Pane.table, .cards] {
            var browse = BrowseState()
            browse.pane = pane
            let rows = browse.visible(SampleRows.all)
            browse.selectedID = "r2"
            for (name, help, toast) in [("", false, nil), (" with help", true, nil), (" with a toast", false, "Copied the link")] {
                let model = MainModel(
                    rows: rows, totalCount: rows.count, browse: browse, status: "6 locations", server: "127.0.0.1:8080",
                    accountKey: FakeAPI.accountKey, now: TestClock.start, helpOpen: help, toast: toast)
                frames.append(("\(pane.title)\(name)", MainScreen.render(model, width: 120, height: 30).buffer))
            }
        }
        return frames
    }

    @Test func everyCellReadsOnTheBackgroundItsThemeIsFor() {
        for terminal in Self.terminals {
            for depth in [Theme.Depth.colors256, .colors16] {
                let theme = Theme(terminal.theme, depth: depth)
                for (frameName, buffer) in frames() {
                    var worst: (ratio: Double, at: String)?
                    for y in 0..<buffer.height {
                        for x in 0..<buffer.width {
                            let cell = buffer[x, y]
                            guard !cell.isContinuation, !cell.character.isWhitespace, !cell.style.dim else {
                                continue
                            }
                            // At 8 and 16 colours a coloured letter's contrast is the palette's.
                            if depth != .colors256, ![nil, .white].contains(cell.style.foreground), !cell.style.reverse { continue }
                            let themed = theme.resolve(cell.style)
                            var foreground = themed.foreground.map(MapPalette.xterm) ?? terminal.foreground
                            var background = themed.background.map(MapPalette.xterm) ?? terminal.background
                            if themed.reverse { swap(&foreground, &background) }
                            let ratio = Contrast.ratio(foreground, background)
                            if ratio < (worst?.ratio ?? 4.5) {
                                worst = (ratio, "(\(x), \(y)) \(cell.character) \(themed.words)")
                            }
                        }
                    }
                    #expect(
                        worst == nil,
                        "\(terminal.theme) at \(depth.rawValue) colours on \(terminal.background), \(frameName): \(worst.map { String(format: "%.2f at %@", $0.ratio, $0.at) } ?? "")"
                    )
                }
            }
        }
    }

    @Test func autoPicksTheThemeForTheBackground() {
        let answered = [(RGB(255, 255, 255), Theme.Name.light), (RGB(0, 0, 0), .dark), (RGB(253, 246, 227), .light),
            (RGB(0, 43, 54), .dark), (RGB(40, 42, 54), .dark), (RGB(238, 232, 213), .light)]
        for (background, expected) in answered {
            let choice = ThemeSetting.auto.choose(background: background, environment: ["COLORFGBG": "15;0"])
            #expect(choice.name == expected, "\(background): \(choice.reason)")
            #expect(choice.reason.hasSuffix("(OSC 11)"))
        }
        #expect(ThemeSetting.auto.choose(background: nil, environment: ["COLORFGBG": "0;15"]).name == .light)
        #expect(ThemeSetting.auto.choose(background: nil, environment: ["COLORFGBG": "15;default;0"]).name == .dark)
        #expect(ThemeSetting.auto.choose(background: nil, environment: ["COLORFGBG": "0;7"]).name == .light)
        #expect(ThemeSetting.auto.choose(background: nil, environment: ["COLORFGBG": "default;default"]).name == .dark)
        #expect(ThemeSetting.auto.choose(background: nil, environment: [:]).reason == "the terminal did not tell its background: dark")
        #expect(ThemeSetting.light.choose(background: RGB(0, 0, 0), environment: [:]).name == .light)
        #expect(ThemeSetting.mono.choose(background: RGB(0, 0, 0), environment: [:]).name == .mono)
    }
}
