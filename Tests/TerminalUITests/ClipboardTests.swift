import AppTestSupport
import Foundation
import Testing
import ViewModels

@testable import TerminalUI

/// `y`: OSC 52 goes to the backend only on that key, and holds only the cleaned link.
@MainActor
struct ClipboardTests {
    @Test func onlyYCopiesAndOnlyTheCleanedLink() async {
        guard let model = await loggedInApp(serverName: "s") else {
            Issue.record("the demo login did not finish")
            return
        }
        let backend = RecordingBackend()
        let ui = AppController(app: model, ascii: false)
        let running = Task { await ui.run(on: backend) }
        // Moving, switching panes, sorting, the help: no clipboard.
        backend.events += [.key(.character("2")), .key(.character("j")), .key(.character("?")), .key(.escape)]
        backend.events += [.key(.character("s")), .key(.character("s")), .key(.character("s")), .key(.character("s"))]
        #expect(await eventually { backend.events.isEmpty })
        #expect(backend.clipboard.isEmpty)
        #expect(model.selectedRow?.objectId == "r2")
        // r2's link has no scheme: the copy is what LinkPolicy would open.
        backend.events.append(.key(.character("y")))
        #expect(await eventually { backend.clipboard == ["https://www.linkedin.com/in/jose"] })
        // r4: a hostile name and a javascript: link — refused, nothing copied, the reason shown.
        backend.events += [.key(.character("j")), .key(.character("j")), .key(.character("y"))]
        #expect(await eventually { model.toast?.text.hasPrefix("Not copying") == true })
        #expect(model.selectedRow?.objectId == "r4")
        #expect(backend.clipboard.count == 1)
        backend.events.append(.endOfInput)
        await running.value
    }

    @Test func osc52IsBase64OfPrintableTextAndWrappedForTmux() {
        let plain = TerminalEscape.clipboard("https://a.example/\u{1B}]0;x\u{07}", insideTmux: false)
        let payload = Data("https://a.example/]0;x".utf8).base64EncodedString()
        #expect(plain == "\u{1B}]52;c;\(payload)\u{07}")
        let tmux = TerminalEscape.clipboard("https://a.example", insideTmux: true)
        let inner = "\u{1B}]52;c;\(Data("https://a.example".utf8).base64EncodedString())\u{07}"
        #expect(tmux == inner + "\u{1B}Ptmux;\u{1B}" + inner + "\u{1B}\\")
    }

    @Test func osc8CarriesNoControls() {
        #expect(
            TerminalEscape.hyperlink("https://a.example/\u{1B}\\x", text: "a\u{9B}b")
                == "\u{1B}]8;;https://a.example/\\x\u{1B}\\ab\u{1B}]8;;\u{1B}\\")
    }
}
