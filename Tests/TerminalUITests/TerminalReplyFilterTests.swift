import Testing

@testable import TerminalUI

/// A terminal's late answers to the graphics query are dropped whole; keys after an Esc are not.
struct TerminalReplyFilterTests {
    /// Feeds what follows the Esc; the verdict, and how many codes it took.
    func verdict(after text: String, ending: Bool = false) -> (TerminalReplyFilter.Verdict, Int) {
        var filter = TerminalReplyFilter()
        var count = 0
        for scalar in text.unicodeScalars {
            count += 1
            let verdict = filter.feed(scalar.value)
            if verdict != .needMore { return (verdict, count) }
        }
        return (ending ? filter.end() : .needMore, count)
    }

    @Test(arguments: [
        "_Gi=31;OK\u{1B}\\",  // Kitty's graphics answer
        "]11;rgb:ffff/ffff/ffff\u{1B}\\",  // OSC 11, ended by ST
        "]11;rgb:0000/0000/0000\u{07}",  // and by BEL
        "[?62;4;22c",  // DA1
        "[?2;0;1000;1000S",  // XTSMGRAPHICS
        "[6;16;8t",  // the cell size
        "P1$r0m\u{1B}\\",  // a DCS answer
    ])
    func anAnswerIsDroppedWholeAndNoFurther(answer: String) {
        let (verdict, count) = verdict(after: answer + "abc")
        #expect(verdict == .reply)
        #expect(count == answer.unicodeScalars.count, "the keys after the answer are read as keys")
    }

    @Test func escAloneAndAltWithAKeyAreKeys() {
        #expect(verdict(after: "", ending: true).0 == .keys([]))
        #expect(verdict(after: "q").0 == .keys([UInt32(UInt8(ascii: "q"))]))
        #expect(verdict(after: "\u{1B}").0 == .keys([0x1B]))
    }

    @Test func aControlSequenceBrokenByAControlCodeIsKeys() {
        #expect(verdict(after: "[6\r").0 == .keys([0x5B, 0x36, 0x0D]))
    }

    @Test func anUnfinishedAnswerIsStillAnAnswer() {
        #expect(verdict(after: "]11;rgb:ff", ending: true).0 == .reply)
        #expect(verdict(after: "[?62;4", ending: true).0 == .reply)
    }

    @Test func anEndlessAnswerIsCutAtTheLongest() {
        let (verdict, count) = verdict(after: "]" + String(repeating: "x", count: 10_000))
        #expect(verdict == .reply)
        #expect(count == TerminalReplyFilter.longestAnswer)
    }
}
