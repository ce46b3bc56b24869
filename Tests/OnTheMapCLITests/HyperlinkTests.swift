import Foundation
import OnTheMapModels
import Testing

@testable import onthemap

/// `onthemap list` writes OSC 8 hyperlinks only when asked, and only for links LinkPolicy accepts.
@Suite struct HyperlinkTests {
    let rows = [
        StudentInformation(
            objectId: "a", uniqueKey: "1", firstName: "Ada", lastName: "L", mapString: "London", mediaURL: "ada.example",
            latitude: 51.5, longitude: 0),
        StudentInformation(
            objectId: "b", uniqueKey: "2", firstName: "Eve", lastName: "X", mapString: "Nowhere",
            mediaURL: "javascript:alert(1)", latitude: 0, longitude: 0),
    ]

    @Test func onlyWhenAskedAndOnlyForSafeLinks() {
        let plain = LocationFormatter.table(rows, hyperlinks: false)
        #expect(!plain.contains("\u{1B}"))
        let linked = LocationFormatter.table(rows, hyperlinks: true)
        #expect(linked.contains("\u{1B}]8;;https://ada.example\u{1B}\\ada.example\u{1B}]8;;\u{1B}\\"))
        #expect(linked.components(separatedBy: "\u{1B}]8;;").count == 3)  // one link: opened and closed
        let eve = linked.split(separator: "\n").first { $0.contains("Eve") } ?? ""
        #expect(eve.hasSuffix("javascript:alert(1)") && !eve.contains("\u{1B}"))
    }

    @Test func offByDefault() {
        let terminal = ["TERM": "xterm-256color"]
        #expect(!HyperlinkSetting.effective(flag: nil, environment: terminal, stdoutIsTerminal: true))
        #expect(HyperlinkSetting.effective(flag: true, environment: terminal, stdoutIsTerminal: false))
        #expect(!HyperlinkSetting.effective(flag: false, environment: terminal, stdoutIsTerminal: true))
    }

    @Test func theListCommandWritesNoEscapeUnlessAsked() async throws {
        let home = try ListCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: home) }
        let plain = try await ListCommandTests.run(["list", "--limit", "5"], dataHome: home)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(!plain.stdout.contains("\u{1B}"))
        let linked = try await ListCommandTests.run(["list", "--limit", "5", "--hyperlinks"], dataHome: home)
        #expect(linked.stdout.contains("\u{1B}]8;;https://"))
    }
}
