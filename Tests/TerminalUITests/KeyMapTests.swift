import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

/// The key table is the one source of dispatch, footer, help overlay and the documented table.
@MainActor
struct KeyMapTests {
    func loggedIn(_ api: FakeAPI, keys: KeyMap) async -> AppController? {
        guard let model = await loggedInApp(api: api) else {
            Issue.record("the demo login did not finish")
            return nil
        }
        return AppController(app: model, keys: keys, ascii: false)
    }

    func downloads(_ api: FakeAPI) async -> Int { await api.calls.filter { $0.hasPrefix("locations") }.count }

    @Test func changingOneBindingChangesDispatchFooterHelpAndDocTogether() async {
        let keys = KeyMap.standard.rebinding(.refresh, to: [.character("R")])
        let api = FakeAPI()
        guard let ui = await loggedIn(api, keys: keys) else { return }
        let before = await downloads(api)
        ui.handle(.key(.character("r")))
        #expect(ui.app.refreshing == nil)
        ui.handle(.key(.character("R")))
        #expect(ui.app.refreshing != nil)
        #expect(await eventually { ui.app.refreshing == nil })
        #expect(await downloads(api) == before + 1)

        let footer = ui.frame(width: 100, height: 30).buffer.text.split(separator: "\n").last ?? ""
        #expect(footer.contains("R refresh") && !footer.contains("r refresh"))

        ui.handle(.key(.character("?")))
        let help = ui.frame(width: 100, height: 30).buffer.text
        #expect(helpLine(help, "refresh")?.contains(" R ") == true)
        #expect(helpLine(help, "refresh")?.contains(" r ") == false)

        #expect(keys.markdown().contains("| Main view | `R` | refresh |"))
        #expect(!keys.markdown().contains("| Main view | `r` | refresh |"))
        #expect(KeyMap.standard.markdown().contains("| Main view | `r` | refresh |"))
    }

    /// The help overlay's line that ends in `text`.
    func helpLine(_ screen: String, _ text: String) -> String? {
        screen.split(separator: "\n").map(String.init).first { line in
            line.split(separator: "│").contains { $0.trimmingCharacters(in: .whitespaces).hasSuffix(" " + text) }
        }
    }

    @Test func theDocumentedKeyTableIsTheKeyMap() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Docs/TerminalApp.md")
        let doc = try String(contentsOf: url, encoding: .utf8)
        let begin =
            "<!-- key table: made from KeyMap.standard; SNAPSHOT_RECORD=1 swift test --filter KeyMapTests rewrites it -->\n"
        let end = "\n<!-- end of key table -->"
        let start = try #require(doc.range(of: begin))
        let stop = try #require(doc.range(of: end, range: start.upperBound..<doc.endIndex))
        let documented = String(doc[start.upperBound..<stop.lowerBound])
        let table = KeyMap.standard.markdown()
        if ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1", documented != table {
            try doc.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: table)
                .write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(documented == table, "Docs/TerminalApp.md's key table differs from KeyMap.standard")
    }

    @Test func noKeyIsBoundTwiceInOneContext() {
        for context in KeyContext.allCases {
            let keys = KeyMap.standard.bindings.filter { $0.context == context }.flatMap(\.keys)
            #expect(Set(keys).count == keys.count, "\(context)")
        }
    }

    @Test func everyActionHasAKeyOrAButton() {
        let bound = Set(KeyMap.standard.bindings.map(\.action)).union(Button.allCases.map(\.action))
        #expect(Set(Action.allCases).subtracting(bound).isEmpty)
    }

    @Test func keyNamesReadBack() {
        for key in KeyMap.standard.bindings.flatMap(\.keys) {
            #expect(Key(name: key.name) == key, "\(key.name)")
        }
        #expect(Key(name: "Ctrl-X") == .control("x"))
        #expect(Key(name: "Hyper-Q") == nil)
    }
}
