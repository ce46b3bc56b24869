import Foundation
import MapPicture
import Testing
import WorldMap

#if canImport(Glibc)
    import Glibc
#endif

/// `graphics = auto` decides from what the terminal answers, never inside tmux or screen, and a
/// missing library or a silent terminal means Braille with the reason said.
@Suite struct GraphicsDetectionTests {
    static let xterm = ["TERM": "xterm-256color"]
    static func present(_ imageProtocol: ImageProtocol) -> String? { nil }

    @Test func theAnswerIsReadFromWhatTheTerminalSent() {
        let kitty = TerminalAnswer.parse(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;22c".utf8))
        #expect(kitty == TerminalAnswer(kitty: true, deviceAttributes: [62, 22], cellPixels: (10, 20)))
        // foot: no Kitty, Sixel (4) in DA1; a key typed meanwhile is passed over.
        let foot = TerminalAnswer.parse(Array("x\u{1B}[?62;4;22c".utf8))
        #expect(foot == TerminalAnswer(kitty: false, deviceAttributes: [62, 4, 22]))
        let refused = TerminalAnswer.parse(Array("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?1;2c".utf8))
        #expect(!refused.kitty && refused.deviceAttributes == [1, 2])
        // Half an answer is no answer: the wait goes on until DA1 is whole.
        #expect(TerminalAnswer.parse(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;2".utf8)).deviceAttributes == nil)
        #expect(TerminalAnswer.parse(Array("\u{1B}[?6\u{1B}[2;2c".utf8)).deviceAttributes == nil)
    }

    /// Sixel's limits (XTSMGRAPHICS) and the background (OSC 11) come before DA1, whose arrival
    /// still ends the wait; a terminal that refuses an item (status 3) leaves it unknown.
    @Test func sixelLimitsAndTheBackgroundAreReadToo() {
        // xterm -ti vt340: 16 registers, pictures up to 1000×1000, a white background, ST-terminated.
        let xterm = TerminalAnswer.parse(
            Array("\u{1B}[?1;0;16S\u{1B}[?2;0;1000;1000S\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?63;1;2;4;6;9;15;16;22;28;29c".utf8))
        #expect(xterm.colorRegisters == 16)
        #expect(xterm.sixelGeometry?.width == 1000 && xterm.sixelGeometry?.height == 1000)
        #expect(xterm.background == RGB(255, 255, 255))
        #expect(xterm.deviceAttributes == [63, 1, 2, 4, 6, 9, 15, 16, 22, 28, 29])
        // Two hex digits a channel, BEL-terminated (rxvt, some others); a refused item.
        let other = TerminalAnswer.parse(Array("\u{1B}]11;rgb:1e/1e/2e\u{07}\u{1B}[?2;3;0S\u{1B}[?62;4c".utf8))
        #expect(other.background == RGB(30, 30, 46))
        #expect(other.sixelGeometry == nil && other.colorRegisters == nil)
        #expect(other.deviceAttributes == [62, 4])
        // Cut short: no DA1 yet, nothing made up from half a colour.
        let half = TerminalAnswer.parse(Array("\u{1B}]11;rgb:ffff/ff".utf8))
        #expect(half.background == nil && half.deviceAttributes == nil)
        #expect(
            GraphicsDetection.query(graphics: false, background: true) == "\u{1B}]11;?\u{1B}\\\u{1B}[c",
            "inside tmux: the background alone, then DA1")
        #expect(GraphicsDetection.sixelLimits(xterm) == "pictures up to 1000×1000 pixels in 16 colours (XTSMGRAPHICS)")
        #expect(GraphicsDetection.sixelLimits(other) == nil)
        #expect(GraphicsDetection.query(graphics: true, background: false) == GraphicsDetection.query)
        #expect(GraphicsDetection.query.hasSuffix("\u{1B}[?1;1;0S\u{1B}[?2;1;0S\u{1B}[c"))
    }

    @Test func autoFollowsTheAnswer() {
        let kitty = GraphicsDetection.choose(
            setting: .auto, environment: Self.xterm, database: nil, answer: TerminalAnswer(kitty: true, deviceAttributes: [62]),
            missing: Self.present)
        #expect(kitty.imageProtocol == .kitty && kitty.reason.contains("Kitty graphics query"))
        let sixel = GraphicsDetection.choose(
            setting: .auto, environment: Self.xterm, database: nil, answer: TerminalAnswer(deviceAttributes: [62, 4]),
            missing: Self.present)
        #expect(sixel.imageProtocol == .sixel && sixel.reason.contains("DA1"))
        let plain = GraphicsDetection.choose(
            setting: .auto, environment: Self.xterm, database: [], answer: TerminalAnswer(deviceAttributes: [62, 22]),
            missing: Self.present)
        #expect(plain.imageProtocol == nil && plain.reason.contains("Braille"))
        let iterm = GraphicsDetection.choose(
            setting: .auto, environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], database: [.iterm],
            answer: TerminalAnswer(deviceAttributes: [62]), missing: Self.present)
        #expect(iterm.imageProtocol == .iterm)
        let silent = GraphicsDetection.choose(
            setting: .auto, environment: Self.xterm, database: nil, answer: nil, missing: Self.present)
        #expect(silent.imageProtocol == nil && silent.reason.contains("did not answer"))
    }

    @Test func insideTmuxOrScreenAutoKeepsBrailleWithoutAsking() {
        for environment in [
            ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1/default,1,0"], ["TERM": "screen-256color", "STY": "1.pts-0"],
            ["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-1/default,1,0"], ["TERM": "linux"], [:],
        ] {
            #expect(GraphicsDetection.reasonNotToAsk(environment) != nil, "\(environment)")
            let choice = GraphicsDetection.choose(
                setting: .auto, environment: environment, database: [.kitty], answer: TerminalAnswer(kitty: true, deviceAttributes: [4]),
                missing: Self.present)
            #expect(choice.imageProtocol == nil, "\(environment)")
        }
        #expect(GraphicsDetection.reasonNotToAsk(Self.xterm) == nil)
        // Forced, a picture inside tmux too.
        let forced = GraphicsDetection.choose(
            setting: .sixel, environment: ["TMUX": "x"], database: nil, answer: nil, missing: Self.present)
        #expect(forced.imageProtocol == .sixel)
    }

    @Test func offAndAMissingLibraryMeanBrailleAndSayWhy() {
        #expect(
            GraphicsDetection.choose(
                setting: .off, environment: Self.xterm, database: [.kitty], answer: TerminalAnswer(kitty: true),
                missing: Self.present
            ).imageProtocol == nil)
        let missing = GraphicsDetection.choose(
            setting: .kitty, environment: Self.xterm, database: nil, answer: nil, missing: { _ in "libpng16-16" })
        #expect(missing.imageProtocol == nil && missing.reason.contains("libpng16-16 is missing"))
        #expect(ImageProtocol.sixel.missingLibrary == nil, "Sixel is written without a library")
        let auto = GraphicsDetection.choose(
            setting: .auto, environment: Self.xterm, database: nil, answer: TerminalAnswer(kitty: true, deviceAttributes: [1]),
            missing: { $0 == .kitty ? "libpng16-16" : nil })
        #expect(auto.imageProtocol == nil && auto.reason.contains("libpng16-16"))
    }

    /// A terminal that could not be asked at all (not a TTY, an ioctl refused) is told apart
    /// from one that did not answer: `onthemap config` and the trace say which.
    @Test func aTerminalThatCouldNotBeAskedSaysWhy() throws {
        let unasked = GraphicsDetection.choose(
            setting: .auto, environment: Self.xterm, database: nil, answer: nil, unasked: "tcgetattr: Input/output error")
        #expect(unasked.imageProtocol == nil && unasked.reason.contains("could not be asked (tcgetattr: Input/output error)"))
        let silent = GraphicsDetection.choose(setting: .auto, environment: Self.xterm, database: nil, answer: nil)
        #expect(silent.reason.contains("did not answer"))
        var pipe: [Int32] = [0, 0]
        #expect(Glibc.pipe(&pipe) == 0)
        defer { close(pipe[0]); close(pipe[1]) }
        #expect(GraphicsDetection.ask(input: pipe[0], output: pipe[1]) == nil, "a pipe is no terminal: nothing is written")
        var byte: UInt8 = 0
        #expect(fcntl(pipe[0], F_SETFL, O_NONBLOCK) == 0)
        #expect(read(pipe[0], &byte, 1) == -1, "no query written to a pipe")
    }

    @Test func theTerminalDatabaseIsLoadedOnlyWhenTheAnswerSettlesNothing() {
        let named = ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]
        #expect(GraphicsDetection.needsDatabase(named, answer: TerminalAnswer(deviceAttributes: [62])))
        #expect(!GraphicsDetection.needsDatabase(named, answer: TerminalAnswer(kitty: true, deviceAttributes: [62])))
        #expect(!GraphicsDetection.needsDatabase(Self.xterm, answer: TerminalAnswer(deviceAttributes: [62])))
    }

    /// libchafa's own database (Debian's libchafa0, which `make test` installs).
    @Test func libchafasDatabaseKnowsTheTerminals() throws {
        let kitty = try #require(GraphicsDetection.database(["TERM": "xterm-kitty"]))
        #expect(kitty.contains(.kitty))
        #expect(GraphicsDetection.database(["TERM": "foot"])?.contains(.sixel) == true)
        #expect(GraphicsDetection.database(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"])?.contains(.iterm) == true)
        #expect(GraphicsDetection.database(["TERM": "xterm-256color"]) == [])
    }

    /// The query on a real pseudo-terminal: a terminal that answers is read until its DA1, one
    /// that never answers costs the timeout and no more.
    @Test func theQueryOnAPseudoTerminal() throws {
        var master: Int32 = 0
        var slave: Int32 = 0
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer {
            close(master)
            close(slave)
        }
        let started = Date()
        #expect(GraphicsDetection.ask(input: slave, output: slave, timeoutMilliseconds: 150) == nil)
        #expect(Date().timeIntervalSince(started) < 2, "a silent terminal costs the timeout")
        // Drain the first query, then answer the next one as kitty does, from another thread.
        var drain = [UInt8](repeating: 0, count: 256)
        _ = read(master, &drain, drain.count)
        let terminal = master
        let answering = Thread {
            var query = [UInt8](repeating: 0, count: 256)
            var seen: [UInt8] = []
            while !String(decoding: seen, as: UTF8.self).contains("\u{1B}[c") {
                let count = read(terminal, &query, query.count)
                if count <= 0 { return }
                seen += query[0..<count]
            }
            let answer = Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;18;9t\u{1B}[?62;22c".utf8)
            _ = write(terminal, answer, answer.count)
        }
        answering.start()
        let answer = GraphicsDetection.ask(input: slave, output: slave, timeoutMilliseconds: 10_000)
        #expect(answer == TerminalAnswer(kitty: true, deviceAttributes: [62, 22], cellPixels: (9, 18)))
    }
}
