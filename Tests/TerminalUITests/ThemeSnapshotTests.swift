import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

/// Each theme at each colour depth, on one colourful screen (the Map pane, whose pins, land,
/// names and own pin use most of the colours): the style layer as the terminal is asked to show it.
@MainActor
struct ThemeSnapshotTests {
    func mapFrame() -> Buffer {
        var browse = BrowseState()
        browse.pane = .map
        let rows = browse.visible(SampleRows.all)
        browse.selectedID = rows.dropFirst().first?.objectId
        let model = MainModel(
            rows: rows, totalCount: SampleRows.all.count, browse: browse, status: "6 locations · updated 2 min ago",
            server: "127.0.0.1:8080", accountKey: "me", now: TestClock.start, annotationOpen: false, helpOpen: false,
            alert: nil)
        return MainScreen.render(model, width: 80, height: 24).buffer
    }

    @Test func everyThemeAtEveryDepth() {
        let buffer = mapFrame()
        for name in Theme.Name.allCases {
            let depths: [Theme.Depth?] = name == .mono ? [nil] : Theme.Depth.allCases
            for depth in depths {
                let theme = Theme(name, depth: depth)
                assertSnapshot(
                    buffer.text, styles: buffer.themedStyleText(theme),
                    named: "theme-\(name.rawValue)\(depth.map { "-\($0.rawValue)" } ?? "")")
            }
        }
    }

    @Test func darkAtEightColoursIsWhatTheAppAlwaysDrew() {
        let theme = Theme(.dark, depth: .colors8)
        for color in TerminalColor.allCases {
            #expect(theme.foreground(color) == color.rawValue && theme.background(color) == color.rawValue)
        }
    }

    @Test func lightNeverWritesWhiteOrYellowText() {
        for depth in Theme.Depth.allCases {
            let theme = Theme(.light, depth: depth)
            let white: Set<Int> = [7, 15, 231, 255, 254, 253, 252, 11, 3 + 8, 226, 227, 228, 229, 230]
            for color in TerminalColor.allCases {
                #expect(!white.contains(theme.foreground(color) ?? -1), "\(color) at \(depth)")
            }
        }
    }

    @Test func noColorWinsOverAnyTheme() {
        for name in Theme.Name.allCases {
            let theme = Theme.resolve(name, colors: 256, environment: ["NO_COLOR": "1"])
            #expect(theme.depth == nil)
            #expect(theme.resolve(Style(foreground: .red, background: .black, bold: true)).words == "bold")
        }
        #expect(Theme.resolve(.light, colors: 256, environment: ["NO_COLOR": ""]).depth == .colors256)
        #expect(Theme.resolve(.dark, colors: 16, environment: [:]).depth == .colors16)
        #expect(Theme.resolve(.dark, colors: 2, environment: [:]).depth == nil)
    }
}
