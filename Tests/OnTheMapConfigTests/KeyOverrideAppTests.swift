import AppTestSupport
import Foundation
import OnTheMapConfig
import Testing
import ViewModels

@testable import TerminalUI

/// A `[keys]` override in the settings file reaches the running app: its footer and its dispatch.
@MainActor
struct KeyOverrideAppTests {
    @Test func anOverrideReachesFooterAndDispatch() async {
        let file = ConfigFile(parsing: "[keys]\nrefresh = \"R\"\n", path: "/tmp/config.toml")
        let settings = Settings.resolve(flags: SettingsFlags(), environment: [:], file: file)
        let api = FakeAPI()
        guard let model = await loggedInApp(api: api) else {
            Issue.record("the demo login did not finish")
            return
        }
        let ui = AppController(app: model, keys: settings.keys, ascii: false)
        let downloads = { await api.calls.filter { $0.hasPrefix("locations") }.count }
        let before = await downloads()

        ui.handle(.key(.character("r")))
        #expect(ui.app.refreshing == nil)
        ui.handle(.key(.character("R")))
        #expect(ui.app.refreshing != nil)
        #expect(await eventually { ui.app.refreshing == nil })
        #expect(await downloads() == before + 1)

        let footer = ui.frame(width: 100, height: 30).buffer.text.split(separator: "\n").last ?? ""
        #expect(footer.contains("R refresh") && !footer.contains("r refresh"))
    }
}
