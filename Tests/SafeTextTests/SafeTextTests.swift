import Foundation
import Testing

@testable import SafeText

@Suite struct SafeTextTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("red \u{1B}[31mtext\u{1B}[0m", "red text"),
        ("title \u{1B}]0;pwned\u{07}after", "title after"),
        ("link \u{1B}]8;;http://evil\u{1B}\\x\u{1B}]8;;\u{1B}\\", "link x"),
        ("c1 \u{9B}2Jclear", "c1 clear"),
        ("osc8 \u{9D}8;;x\u{9C}y", "osc8 y"),
        ("bidi \u{202E}gnp.exe", "bidi gnp.exe"),
        ("iso \u{2066}a\u{2069}", "iso a"),
        ("tab\tnew\nline\r", "tab new line "),
        ("bell\u{07}nul\u{00}del\u{7F}", "bellnuldel"),
        ("São Paulo 東京 🎉", "São Paulo 東京 🎉"),
        ("dangling \u{1B}", "dangling "),
        ("keypad \u{1B}=x", "keypad x"),
        ("charset \u{1B}(Bx", "charset x"),
    ])
    func cleans(input: String, expected: String) {
        #expect(SafeText.clean(input) == expected)
    }

    @Test func cleanOutputHasNoControlsForAnyByte() {
        var all = ""
        for value in UInt32(0)..<0x300 {
            if let scalar = Unicode.Scalar(value) { all.unicodeScalars.append(scalar) }
        }
        let cleaned = SafeText.clean(all + all)
        #expect(!cleaned.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
    }

    @Test func jsonKeepsTheDataAndEscapesEveryControl() throws {
        var all = ""
        for value in Array(UInt32(0)..<0x300) + [0x061C, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069, 0xFEFF] {
            if let scalar = Unicode.Scalar(value) { all.unicodeScalars.append(scalar) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let json = SafeText.escapingControls(inJSON: String(decoding: try encoder.encode(["a": all, "b": all]), as: UTF8.self))
        // Only the pretty-printing's own line breaks are left raw.
        #expect(json.unicodeScalars.allSatisfy { $0 == "\n" || !SafeText.isTerminalControl($0) })
        #expect(json.contains("\\u009b") && json.contains("\\u202e") && json.contains("\\u007f"))
        #expect(try JSONDecoder().decode([String: String].self, from: Data(json.utf8)) == ["a": all, "b": all])
    }

    @Test func measuresColumns() {
        #expect(SafeText.width("abc") == 3)
        #expect(SafeText.width("東京") == 4)
        #expect(SafeText.width("🎉") == 2)
        #expect(SafeText.width("e\u{301}") == 1)
        #expect(SafeText.width("⠿") == 1)
    }

    @Test func truncatesAndPadsByColumns() {
        #expect(SafeText.truncate("Hello, world", toWidth: 8) == "Hello, …")
        #expect(SafeText.truncate("東京東京", toWidth: 5) == "東京…")
        #expect(SafeText.truncate("short", toWidth: 10) == "short")
        #expect(SafeText.pad("東京", toWidth: 6) == "東京  ")
        #expect(SafeText.width(SafeText.pad(String(repeating: "界", count: 5000), toWidth: 11)) == 11)
    }
}
