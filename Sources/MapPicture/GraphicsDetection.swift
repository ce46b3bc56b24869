import CChafa
import Foundation
import WorldMap

#if canImport(Glibc)
    import Glibc
#endif

/// Whether the app draws its map as a picture, with which protocol, and why: what `auto` found
/// or what was asked for (`onthemap config` prints the reason).
public struct GraphicsChoice: Sendable, Equatable {
    /// nil: Braille (or ASCII), the fallback.
    public var imageProtocol: ImageProtocol?
    public var reason: String

    public init(_ imageProtocol: ImageProtocol?, reason: String) {
        self.imageProtocol = imageProtocol
        self.reason = reason
    }
}

/// A terminal's answer to `GraphicsDetection.query`: Kitty's graphics query, the cell size
/// (CSI 16 t), Sixel's limits (XTSMGRAPHICS), the background colour (OSC 11) and the primary
/// device attributes (DA1), which every VT100-like terminal answers and which come last, so that
/// their arrival ends the wait.
public struct TerminalAnswer: Sendable, Equatable {
    /// The terminal answered the Kitty graphics query with OK.
    public var kitty = false
    /// DA1's parameters (4 is Sixel); nil until they arrived.
    public var deviceAttributes: [Int]?
    /// A cell's size in pixels from CSI 16 t, when the terminal told it.
    public var cellPixels: (width: Int, height: Int)?
    /// The largest Sixel picture the terminal shows now, in pixels (XTSMGRAPHICS 2): xterm's
    /// default is 1000×1000, and it draws nothing of a larger one.
    public var sixelGeometry: (width: Int, height: Int)?
    /// How many colours a Sixel picture may use (XTSMGRAPHICS 1): xterm's VT340 has 16.
    public var colorRegisters: Int?
    /// The terminal's background colour (OSC 11), for `theme = auto`.
    public var background: RGB?

    public init(
        kitty: Bool = false, deviceAttributes: [Int]? = nil, cellPixels: (width: Int, height: Int)? = nil,
        sixelGeometry: (width: Int, height: Int)? = nil, colorRegisters: Int? = nil, background: RGB? = nil
    ) {
        self.kitty = kitty
        self.deviceAttributes = deviceAttributes
        self.cellPixels = cellPixels
        self.sixelGeometry = sixelGeometry
        self.colorRegisters = colorRegisters
        self.background = background
    }

    public static func == (a: TerminalAnswer, b: TerminalAnswer) -> Bool {
        a.kitty == b.kitty && a.deviceAttributes == b.deviceAttributes && a.cellPixels?.width == b.cellPixels?.width
            && a.cellPixels?.height == b.cellPixels?.height && a.sixelGeometry?.width == b.sixelGeometry?.width
            && a.sixelGeometry?.height == b.sixelGeometry?.height && a.colorRegisters == b.colorRegisters
            && a.background == b.background
    }

    /// What `bytes` (everything read so far) answer. Anything else in them (a key pressed
    /// meanwhile) is passed over.
    public static func parse(_ bytes: [UInt8]) -> TerminalAnswer {
        var answer = TerminalAnswer()
        let text = String(decoding: bytes, as: UTF8.self)
        // ESC _ G i=31;OK ESC \   (an error is ESC _ G i=31;ENOTSUPPORTED:… ESC \)
        if let start = text.range(of: "\u{1B}_Gi=31;") {
            answer.kitty = text[start.upperBound...].hasPrefix("OK")
        }
        // ESC [ 6 ; height ; width t
        if let start = text.range(of: "\u{1B}[6;"), let end = text[start.upperBound...].firstIndex(of: "t") {
            let numbers = text[start.upperBound..<end].split(separator: ";").compactMap { Int($0) }
            if numbers.count == 2, numbers[0] > 0, numbers[1] > 0 { answer.cellPixels = (numbers[1], numbers[0]) }
        }
        for (numbers, final) in privateReports(text) {
            switch final {
            case "c":  // ESC [ ? 62 ; 4 ; 22 c
                if answer.deviceAttributes == nil { answer.deviceAttributes = numbers }
            case "S":  // ESC [ ? Pi ; 0 ; value… S: XTSMGRAPHICS' item, success, its values
                guard numbers.count >= 3, numbers[1] == 0 else { continue }
                if numbers[0] == 1, numbers[2] > 0 { answer.colorRegisters = numbers[2] }
                if numbers[0] == 2, numbers.count >= 4, numbers[2] > 0, numbers[3] > 0 {
                    answer.sixelGeometry = (numbers[2], numbers[3])
                }
            default: break
            }
        }
        // ESC ] 11 ; rgb:RRRR/GGGG/BBBB (ESC \ or BEL): 1 to 4 hex digits a channel.
        if let start = text.range(of: "\u{1B}]11;rgb:") {
            let rest = text[start.upperBound...]
            if let end = rest.firstIndex(where: { $0 == "\u{1B}" || $0 == "\u{07}" }) {
                let channels = rest[..<end].split(separator: "/").compactMap { channel -> UInt8? in
                    guard (1...4).contains(channel.count), let value = Int(channel, radix: 16) else { return nil }
                    let top = (1 << (4 * channel.count)) - 1
                    return UInt8((Double(value) * 255 / Double(top)).rounded())
                }
                if channels.count == 3 { answer.background = RGB(channels[0], channels[1], channels[2]) }
            }
        }
        return answer
    }

    /// The whole `ESC [ ? numbers final` reports in `text`: DA1 (`c`), XTSMGRAPHICS (`S`). A
    /// report cut short, or with anything but digits and `;` before its final byte, is none.
    static func privateReports(_ text: String) -> [(numbers: [Int], final: Character)] {
        var reports: [(numbers: [Int], final: Character)] = []
        var rest = Substring(text)
        while let start = rest.range(of: "\u{1B}[?") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(where: { !($0.isASCII && ($0.isNumber || $0 == ";")) }) else { break }
            let final = rest[end]
            if final.isASCII, final.isLetter {
                reports.append((rest[..<end].split(separator: ";").compactMap { Int($0) }, final))
            }
            rest = rest[end...]
        }
        return reports
    }
}

/// `graphics = auto | kitty | sixel | iterm | off`, decided: a pure choice over what the
/// environment, libchafa's terminal database and the terminal's answer say, and the shell that
/// asks the terminal.
public enum GraphicsDetection {
    /// The one capability query: Kitty's graphics query (a 1×1 image that is never stored), the
    /// cell size, Sixel's colour registers and largest picture now (XTSMGRAPHICS, read), and DA1
    /// last.
    public static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[16t\u{1B}[?1;1;0S\u{1B}[?2;1;0S\u{1B}[c"

    /// The background's colour (OSC 11), asked for `theme = auto`: also inside tmux, which
    /// answers it with the outer terminal's.
    public static let backgroundQuery = "\u{1B}]11;?\u{1B}\\"

    /// What to ask: the graphics query's parts when `graphics`, the background when
    /// `background`, and DA1 last in every case (its answer ends the wait).
    public static func query(graphics: Bool, background: Bool) -> String {
        let parts = (graphics ? String(query.dropLast(3)) : "") + (background ? backgroundQuery : "")
        return parts + "\u{1B}[c"
    }

    /// How long `auto` waits for the answer: a terminal that does not answer costs this once, at
    /// start. Every VT100-like terminal answers DA1, which ends the wait, so only a terminal that
    /// answers nothing pays it whole, and it is long enough for an answer over ssh from another
    /// continent, or from a terminal busy drawing its first frames (kitty on a software renderer
    /// took 430 ms on an idle machine, and over a second beside a build); one later still is
    /// dropped as it comes (`TerminalReplyFilter`): the app then draws Braille, and `theme = auto`
    /// goes by `COLORFGBG`, else dark.
    public static let answerTimeoutMilliseconds = 3000

    /// Whether `auto` asks the terminal at all: not inside tmux or screen (which answer for
    /// themselves and pass pictures on only when built and set for it), not on a terminal that
    /// shows no pictures.
    public static func reasonNotToAsk(_ environment: [String: String]) -> String? {
        let term = environment["TERM"] ?? ""
        if environment["TMUX"].map({ !$0.isEmpty }) == true || term.hasPrefix("tmux") {
            return "inside tmux: Braille (--graphics kitty|sixel|iterm forces a picture)"
        }
        if environment["STY"].map({ !$0.isEmpty }) == true || term.hasPrefix("screen") {
            return "inside screen: Braille (--graphics kitty|sixel|iterm forces a picture)"
        }
        if term.isEmpty || term == "dumb" || term == "linux" || term == "vt100" {
            return "TERM=\(term.isEmpty ? "(unset)" : term) shows no pictures: Braille"
        }
        return nil
    }

    /// The choice for `setting`. `database`: the protocols libchafa's terminal database gives
    /// this environment (nil without libchafa); `answer`: the terminal's, nil when it did not
    /// answer in time (or was not asked); `missing`: the library a protocol lacks here.
    public static func choose(
        setting: GraphicsSetting, environment: [String: String], database: Set<ImageProtocol>?, answer: TerminalAnswer?,
        unasked: String? = nil, missing: (ImageProtocol) -> String? = { $0.missingLibrary }
    ) -> GraphicsChoice {
        func checked(_ found: ImageProtocol, _ why: String) -> GraphicsChoice {
            if let library = missing(found) {
                return GraphicsChoice(nil, reason: "\(why), but \(library) is missing: Braille")
            }
            return GraphicsChoice(found, reason: why)
        }
        switch setting {
        case .off: return GraphicsChoice(nil, reason: "graphics = off: Braille")
        case .kitty: return checked(.kitty, "kitty, as asked")
        case .sixel: return checked(.sixel, "sixel, as asked")
        case .iterm: return checked(.iterm, "iterm, as asked")
        case .auto: break
        }
        if let reason = reasonNotToAsk(environment) { return GraphicsChoice(nil, reason: reason) }
        let known =
            database.map { found in
                " (libchafa's terminal database: "
                    + (found.isEmpty ? "no pictures" : found.map(\.rawValue).sorted().joined(separator: ", ")) + ")"
            } ?? ""
        guard let answer else {
            if let unasked { return GraphicsChoice(nil, reason: "the terminal could not be asked (\(unasked)): Braille" + known) }
            return GraphicsChoice(nil, reason: "the terminal did not answer the graphics query in time: Braille" + known)
        }
        if answer.kitty { return checked(.kitty, "the terminal answered the Kitty graphics query" + known) }
        if answer.deviceAttributes?.contains(4) == true {
            return checked(.sixel, "the terminal's device attributes (DA1) list Sixel" + known)
        }
        if database?.contains(.iterm) == true {
            return checked(.iterm, "libchafa's terminal database gives iTerm2 images for this terminal")
        }
        return GraphicsChoice(nil, reason: "the terminal shows no pictures (no Kitty answer, no Sixel in DA1): Braille" + known)
    }

    /// The protocols libchafa's terminal database gives `environment`; nil without libchafa.
    public static func database(_ environment: [String: String]) -> Set<ImageProtocol>? {
        var strings = environment.map { strdup("\($0.key)=\($0.value)") }
        strings.append(nil)
        defer { for pointer in strings { free(pointer) } }
        let found = strings.withUnsafeMutableBufferPointer { otm_chafa_detect($0.baseAddress) }
        guard found >= 0 else { return nil }
        var protocols = Set<ImageProtocol>()
        if found & Int32(OTM_CHAFA_KITTY) != 0 { protocols.insert(.kitty) }
        if found & Int32(OTM_CHAFA_SIXEL) != 0 { protocols.insert(.sixel) }
        if found & Int32(OTM_CHAFA_ITERM) != 0 { protocols.insert(.iterm) }
        return protocols
    }

    /// Writes `query` to the terminal on `output` and reads its answer from `input` (a TTY, put
    /// in non-canonical mode without echo meanwhile) until DA1 arrives or `timeoutMilliseconds`
    /// pass: nil then. Never waits longer.
    public static func ask(
        _ query: String = query, input: Int32, output: Int32, timeoutMilliseconds: Int = answerTimeoutMilliseconds
    ) -> TerminalAnswer? {
        asking(query, input: input, output: output, timeoutMilliseconds: timeoutMilliseconds).answer
    }

    /// `ask`, and why it could not ask at all (nil when the query was written).
    static func asking(_ query: String, input: Int32, output: Int32, timeoutMilliseconds: Int) -> (
        answer: TerminalAnswer?, unasked: String?
    ) {
        func failed(_ call: String) -> (TerminalAnswer?, String?) { (nil, "\(call): \(String(cString: strerror(errno)))") }
        guard isatty(input) == 1 else { return failed("stdin is no terminal") }
        guard isatty(output) == 1 else { return failed("stdout is no terminal") }
        // A signal arriving meanwhile (EINTR) is no reason to give up asking.
        func retrying(_ call: () -> Int) -> Int {
            var result = call()
            while result < 0, errno == EINTR { result = call() }
            return result
        }
        var saved = termios()
        guard retrying({ Int(tcgetattr(input, &saved)) }) == 0 else { return failed("tcgetattr") }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &quiet.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard retrying({ Int(tcsetattr(input, TCSANOW, &quiet)) }) == 0 else { return failed("tcsetattr") }
        var answered = false
        defer {
            // A late or partial answer must not reach the app as keys.
            if !answered { _ = retrying { Int(tcflush(input, TCIFLUSH)) } }
            _ = retrying { Int(tcsetattr(input, TCSANOW, &saved)) }
        }
        var bytes = ArraySlice(query.utf8)
        while !bytes.isEmpty {
            let written = retrying { bytes.withUnsafeBytes { write(output, $0.baseAddress, $0.count) } }
            guard written > 0 else { return failed("write") }
            bytes = bytes.dropFirst(written)
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while received.count < 4096 {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return (nil, nil) }
            var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, (deadline - now) / 1_000_000)))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { return (nil, nil) }
            received += buffer[0..<count]
            let answer = TerminalAnswer.parse(received)
            if answer.deviceAttributes != nil {
                answered = true
                return (answer, nil)
            }
        }
        return (nil, nil)
    }

    /// A character cell's size in pixels: the terminal's from TIOCGWINSZ on `descriptor` when it
    /// reports one, else `answered` (CSI 16 t), else 10×20.
    public static func cellPixels(_ descriptor: Int32 = STDOUT_FILENO, answered: (width: Int, height: Int)? = nil)
        -> (width: Int, height: Int)
    {
        var size = winsize()
        if isatty(descriptor) != 0, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0,
            size.ws_xpixel >= size.ws_col, size.ws_ypixel >= size.ws_row
        {
            return (Int(size.ws_xpixel) / Int(size.ws_col), Int(size.ws_ypixel) / Int(size.ws_row))
        }
        return answered ?? (10, 20)
    }

    /// Whether libchafa's terminal database is worth loading (GLib with it, a few MB) for this
    /// environment and answer: only when the answer settled nothing and the environment names a
    /// terminal program (iTerm2's images are known from the database, not from an answer).
    public static func needsDatabase(_ environment: [String: String], answer: TerminalAnswer?) -> Bool {
        guard answer?.kitty != true, answer?.deviceAttributes?.contains(4) != true else { return false }
        return ["TERM_PROGRAM", "LC_TERMINAL"].contains { environment[$0].map { !$0.isEmpty } == true }
    }

    /// "pictures up to 1000×1000 pixels in 16 colours (XTSMGRAPHICS)": what the terminal said of
    /// its Sixel limits, which the app's pictures keep to (a smaller picture, fewer colours);
    /// nil when it said nothing.
    public static func sixelLimits(_ answer: TerminalAnswer) -> String? {
        let size = answer.sixelGeometry.map { "up to \($0.width)×\($0.height) pixels" }
        let colors = answer.colorRegisters.map { "in \($0) colours" }
        let parts = [size, colors].compactMap { $0 }
        return parts.isEmpty ? nil : "pictures " + parts.joined(separator: " ") + " (XTSMGRAPHICS)"
    }

    /// What `detect` found: the choice, a cell's size in pixels, and the terminal's whole answer
    /// (nil when it was not asked or did not answer).
    public struct Detection: Sendable {
        public var choice: GraphicsChoice
        public var cellPixels: (width: Int, height: Int)
        public var answer: TerminalAnswer?
    }

    /// The choice for `setting` on the terminal of stdin and stdout, and its cell size: asks the
    /// terminal for pictures only for `auto`, and only where `reasonNotToAsk` lets it; for its
    /// background when `background` (theme = auto), anywhere but on a dumb terminal.
    public static func detect(setting: GraphicsSetting, environment: [String: String], background: Bool = false)
        -> Detection
    {
        let graphics = setting == .auto && reasonNotToAsk(environment) == nil
        let background = background && !["", "dumb"].contains(environment["TERM"] ?? "")
        let asked =
            graphics || background
            ? asking(
                query(graphics: graphics, background: background), input: STDIN_FILENO, output: STDOUT_FILENO,
                timeoutMilliseconds: answerTimeoutMilliseconds)
            : (answer: nil, unasked: nil)
        let answer = asked.answer
        let database = graphics && needsDatabase(environment, answer: answer) ? self.database(environment) : nil
        var choice = choose(
            setting: setting, environment: environment, database: database, answer: graphics ? answer : nil,
            unasked: asked.unasked)
        if choice.imageProtocol == .sixel, let limits = answer.flatMap(sixelLimits) { choice.reason += "; " + limits }
        return Detection(choice: choice, cellPixels: cellPixels(answered: answer?.cellPixels), answer: answer)
    }
}
