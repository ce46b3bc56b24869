import CNcurses
import Foundation
import MapPicture
import TerminalUI

/// The terminfo entry a screen is drawn with.
public struct TerminalType: Sendable, Equatable {
    public let name: String
    /// Why it is not `$TERM`'s own entry (nil when it is).
    public let note: String?
}

/// The live `Backend`: blits cell grids with ncursesw (only the cells that changed) and turns
/// `get_wch` and mouse reports into events. The only code in the package that touches curses.
@MainActor
public final class NCursesBackend: Backend {
    /// Why the terminal could not be opened.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The terminfo entry the screen is drawn with, and why, when it is not `$TERM`'s own.
    public let terminalType: TerminalType
    /// Whether the screen must be drawn with ASCII only (non-UTF-8 locale or `--ascii`).
    public let asciiOnly: Bool
    /// The theme drawn with: the one asked for at the terminal's depth, mono under NO_COLOR.
    public let theme: Theme
    private var pairs: [Int: Int16] = [:]
    private var lastFrame: Buffer?
    private var quickErrors = 0
    /// Events read ahead: the keys after an Esc that was not a terminal's answer.
    private var pendingEvents: [Event] = []
    private var isOpen = false
    /// How pictures are shown (nil: never), and a cell's size in pixels.
    private let graphics: (imageProtocol: ImageProtocol, cell: (width: Int, height: Int))?
    /// The pictures on the terminal now, by id, as the terminal has them.
    private var shownPictures: [Int: PictureScene] = [:]
    /// Why the last picture could not be made: pictures are off for the rest of the run.
    public private(set) var pictureFailure: String?
    public var showsPictures: Bool { graphics != nil && pictureFailure == nil }
    public var picturesCoverText: Bool { graphics?.imageProtocol == .iterm }
    /// The largest Sixel picture the terminal shows, in pixels, and its colour registers.
    private let sixelLimits: (pixels: (width: Int, height: Int)?, colors: Int?)
    public var pictureLimit: PictureLimit? {
        guard let graphics, graphics.imageProtocol == .sixel, let pixels = sixelLimits.pixels else { return nil }
        return PictureLimit(pixels: pixels, cell: graphics.cell)
    }

    /// Opens the terminal. Refuses without a TTY on stdin and stdout. `graphics`: the image
    /// protocol the terminal shows pictures with, and its cell size in pixels. `terminalType`:
    /// what `terminalType(_:)` found for `$TERM` (found here when not given).
    public init(
        mouse: Bool, forceASCII: Bool, theme: Theme.Name = .dark, terminalType: TerminalType? = nil,
        graphics: (imageProtocol: ImageProtocol, cell: (width: Int, height: Int))? = nil,
        sixelLimits: (pixels: (width: Int, height: Int)?, colors: Int?) = (nil, nil)
    ) throws {
        self.graphics = graphics
        self.sixelLimits = sixelLimits
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw StartError(
                description:
                    "onthemap needs a terminal: stdin and stdout must be a TTY (for scripts use `onthemap list`).")
        }
        setlocale(LC_ALL, "")
        // A locale that is not UTF-8 means a terminal that may not show Braille or box drawing:
        // draw ASCII only (every other character is mapped by AsciiFallback).
        asciiOnly = forceASCII || otm_codeset_is_utf8() == 0
        // newterm, not initscr: initscr ends the process ("Error opening terminal") when $TERM has
        // no terminfo entry here, where newterm returns nil and the next entry can be tried.
        let type = terminalType ?? Self.terminalType(ProcessInfo.processInfo.environment["TERM"])
        guard let type, Self.newterm(type.name, pictures: graphics != nil) else {
            throw StartError(description: "no terminfo entry for TERM, nor for \(Self.fallbackTypes.joined(separator: ", "))")
        }
        self.terminalType = type
        isOpen = true
        NCursesBackend.installSignalHandlers()
        raw()  // not cbreak: Ctrl-S would stop output (XON/XOFF) and Ctrl-C arrives as a key to quit cleanly
        noecho()
        nonl()
        keypad(otm_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        let environment = ProcessInfo.processInfo.environment
        if Theme.resolve(theme, colors: 256, environment: environment).depth != nil && has_colors() {
            start_color()  // sets COLORS
            use_default_colors()
            self.theme = Theme.resolve(theme, colors: Int(otm_colors()), environment: environment)
        } else {
            self.theme = Theme(theme, depth: nil)
        }
        if mouse {
            mousemask(otm_mouse_mask_clicks_wheel(), nil)
            mouseinterval(0)
        }
    }

    /// The entries tried, in order, when `$TERM` has none here: the nearest a modern terminal is
    /// compatible with first.
    public nonisolated static let fallbackTypes = ["xterm-256color", "xterm", "vt100"]

    /// `$TERM`'s terminfo entry when this machine has it, else the first of `fallbackTypes` it
    /// has, with a one-line note saying so; nil when it has none of them. Tries each entry on
    /// /dev/null, leaving the real terminal alone.
    public nonisolated static func terminalType(_ term: String?) -> TerminalType? {
        let requested = term.flatMap { $0.isEmpty ? nil : $0 }
        if let requested, hasEntry(requested) { return TerminalType(name: requested, note: nil) }
        guard let fallback = fallbackTypes.first(where: hasEntry) else { return nil }
        let shown = requested.map { String($0.unicodeScalars.filter { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }.prefix(40).map(Character.init)) }
        let why = shown.map { "no terminfo for TERM=\($0)" } ?? "TERM is not set"
        return TerminalType(name: fallback, note: "\(why): drawn as \(fallback) (ncurses-term has more)")
    }

    private nonisolated static func hasEntry(_ name: String) -> Bool { otm_has_terminfo(name) != 0 }

    /// Makes curses' screen for terminal type `name`. With `pictures`, on the type's entry
    /// without the ways to scroll part of the screen (`TerminfoWithoutScrolling`: curses would
    /// scroll a picture's pixels along with the lines it moves), read from a private folder
    /// named in `TERMINFO` for this call only.
    private nonisolated static func newterm(_ name: String, pictures: Bool) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        guard pictures, let folder = TerminfoWithoutScrolling.writeFolder(for: name, environment: environment) else {
            return otm_newterm(name) != nil
        }
        defer {
            if let own = environment["TERMINFO"] { setenv("TERMINFO", own, 1) } else { unsetenv("TERMINFO") }
            try? FileManager.default.removeItem(at: folder)
        }
        setenv("TERMINFO", folder.path, 1)
        return otm_newterm(name) != nil
    }

    /// Gives the terminal back. Safe to call more than once.
    public func shutdown() {
        guard isOpen else { return }
        isOpen = false
        removePictures()
        endwin()
    }

    /// Ctrl-Z: the picture deleted, the terminal given back, the process stopped; on `fg`,
    /// everything is drawn again. Done here, on the run loop's thread, rather than by raising
    /// SIGTSTP for curses' own handler: the run loop runs on a worker thread that blocks SIGTSTP,
    /// where a raised one stayed pending and the app never stopped (sent to the process instead,
    /// the handler would run on another thread while this one went on drawing). So this thread
    /// unblocks it and raises it with its default action: the stop begins on this thread, before
    /// raise() returns, and stops every thread. In an orphaned process group (no shell to `fg`
    /// it) the stop is discarded, and the app simply goes on.
    public func suspend() {
        removePictures()
        // A blank screen first: a Sixel picture's pixels stay until something is written over
        // them, and the shell's lines would be written among them.
        erase()
        refresh()
        endwin()
        var stop = sigset_t()
        var mask = sigset_t()
        sigemptyset(&stop)
        sigaddset(&stop, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &stop, &mask)
        let handler = signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        signal(SIGTSTP, handler)
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        lastFrame = nil
        clearok(otm_stdscr(), true)
        refresh()  // back in curses' program mode (raw, no echo) after endwin
    }

    public var size: (width: Int, height: Int) {
        (Int(otm_maxx()), Int(otm_maxy()))
    }

    public func draw(_ buffer: Buffer) { draw(buffer, pictures: []) }

    /// The cells, then each picture over them that changed. A Sixel picture leaves its pixels on
    /// the screen until text is written there: when one goes or moves, the whole screen is written
    /// again, and every picture sent again. A Kitty picture is replaced or deleted by its id.
    public func draw(_ buffer: Buffer, pictures: [PictureScene]) {
        let pictures = showsPictures ? pictures : []
        let wanted = Dictionary(pictures.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, shown) in shownPictures where wanted[id]?.rect != shown.rect { removePicture(id) }
        if graphics?.imageProtocol != .kitty {
            for picture in pictures {
                guard let shown = shownPictures[picture.id], shown.holes != picture.holes else { continue }
                if graphics?.imageProtocol == .sixel, Self.uncovers(picture, beyond: shown) {
                    // Cells the picture leaves (an overlay opens over it) keep its pixels in
                    // xterm's store even when text or ECH is written over them, and xterm draws
                    // them again in the overlay's blank cells when its window is next exposed
                    // (another window moved off it). Only clearing the screen takes them out: the
                    // screen is written again, and every picture sent again around its holes.
                    shownPictures.removeAll()
                    lastFrame = nil
                    clearok(otm_stdscr(), true)
                    break
                }
                // Holes that shrink (an overlay closes): the rows written whole — curses writes
                // only the cells it thinks changed, not a blank over a blank — and the picture,
                // sent again after them, covers all but its holes.
                wredrawln(otm_stdscr(), Int32(picture.rect.y), Int32(picture.rect.height))
            }
        }
        // Each picture is made before the cells are written: rasterising takes a moment, and a
        // cleared screen would show its names without their map that long.
        let sequences = pictures.filter { $0 != shownPictures[$0.id] }.map { ($0, sequence(for: $0)) }
        drawCells(buffer)
        for (picture, sequence) in sequences {
            guard let sequence else {
                shownPictures[picture.id] = nil
                continue
            }
            writeOutside(sequence)
            shownPictures[picture.id] = picture
        }
    }

    /// Whether `picture` leaves cells without picture that `shown` covered (a Sixel picture is
    /// sent in pieces around the box that bounds its holes).
    private static func uncovers(_ picture: PictureScene, beyond shown: PictureScene) -> Bool {
        guard let box = picture.holesBox else { return false }
        guard let before = shown.holesBox else { return true }
        return !before.contains(box)
    }

    private func drawCells(_ buffer: Buffer) {
        let previous = (lastFrame?.width == buffer.width && lastFrame?.height == buffer.height) ? lastFrame : nil
        if previous == nil { erase() }
        for y in 0..<buffer.height {
            for x in 0..<buffer.width {
                let cell = buffer[x, y]
                if let previous, previous[x, y] == cell { continue }
                if cell.isContinuation {
                    // ASCII mode draws a wide character as one '?': fill its right half.
                    if asciiOnly { put(Cell(" ", style: cell.style), x: x, y: y) }
                    continue
                }
                put(cell, x: x, y: y)
            }
        }
        refresh()
        lastFrame = buffer
    }

    /// Puts the terminal's cursor on the selected item (screen readers and input methods follow
    /// it), shown in accessible mode and hidden otherwise.
    public func placeCursor(_ spot: CursorSpot?, visible: Bool) {
        guard let spot else {
            curs_set(0)
            return
        }
        wmove(otm_stdscr(), Int32(spot.y), Int32(spot.x))
        curs_set(visible ? 1 : 0)
        refresh()
    }

    /// Writes the OSC 52 sequence straight to the terminal, after curses has flushed its frame
    /// (it never goes through the cell grid or curses' idea of the screen).
    public func setClipboard(_ text: String) {
        writeOutside(TerminalEscape.clipboard(text, insideTmux: ProcessInfo.processInfo.environment["TMUX"] != nil))
    }

    /// Rasterises `picture` into what writes it at its cells' place, the cursor saved and
    /// restored around it (curses keeps its idea of where the cursor is). A picture that cannot be
    /// made (a library gone missing) is `nil`, and turns pictures off for the run: the next frame
    /// is Braille's.
    private func sequence(for picture: PictureScene) -> String? {
        guard let graphics else { return nil }
        var image = picture.image(cell: graphics.cell, theme: theme.name, textOver: graphics.imageProtocol == .kitty)
        do {
            var sequence = ""
            switch graphics.imageProtocol {
            case .sixel:
                // In pieces around the holes, each where it goes: nothing is drawn over an overlay,
                // so no terminal's idea of a transparent pixel matters.
                if let colors = sixelLimits.colors { image = image.reduced(toColors: colors) }
                let cell = graphics.cell
                for piece in picture.piecesAroundHoles {
                    let part = image.cropped(
                        x: piece.x * cell.width, y: piece.y * cell.height, width: piece.width * cell.width,
                        height: piece.height * cell.height)
                    sequence += "\u{1B}[\(picture.rect.y + piece.y + 1);\(picture.rect.x + piece.x + 1)H"
                        + (try graphics.imageProtocol.encode(part, columns: piece.width, rows: piece.height, cell: cell))
                }
            case .kitty, .iterm:
                // A Kitty picture sent again under its id is deleted first: konsole kept the old
                // one under the new, and kitty showed its pixels through the new one's holes.
                if graphics.imageProtocol == .kitty, shownPictures[picture.id] != nil {
                    sequence += TerminalImage.kittyDelete(id: picture.id)
                }
                sequence += "\u{1B}[\(picture.rect.y + 1);\(picture.rect.x + 1)H"
                    + (try graphics.imageProtocol.encode(
                        image, columns: picture.rect.width, rows: picture.rect.height, cell: graphics.cell, id: picture.id,
                        underText: true))
            }
            return "\u{1B}7" + sequence + "\u{1B}8"
        } catch {
            pictureFailure = String(describing: error)
            return nil
        }
    }

    /// Takes every picture off the screen.
    private func removePictures() {
        for id in shownPictures.keys { removePicture(id) }
    }

    /// Takes picture `id` off the screen: a Kitty one by its id. Sixel and iTerm2 pictures are
    /// pixels in cells: the next frame is written whole (curses clears the screen first), and
    /// every picture is sent again.
    private func removePicture(_ id: Int) {
        guard shownPictures[id] != nil, let graphics else { return }
        if graphics.imageProtocol == .kitty {
            shownPictures[id] = nil
            writeOutside(TerminalImage.kittyDelete(id: id))
        } else {
            shownPictures.removeAll()
            lastFrame = nil
            clearok(otm_stdscr(), true)
        }
    }

    /// Writes `sequence` straight to the terminal after what curses has written.
    private func writeOutside(_ sequence: String) {
        fflush(nil)  // every stream: curses has already written its frame
        let bytes = Array(sequence.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if result < 0, errno == EINTR || errno == EAGAIN { continue }
            if result <= 0 { break }
            written += result
        }
    }

    private func put(_ cell: Cell, x: Int, y: Int) {
        let character = asciiOnly ? AsciiFallback.character(for: cell.character) : cell.character
        var wide = String(character).unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        wide.append(0)
        let style = theme.resolve(cell.style)
        var attributes = otm_a_normal()
        if style.bold { attributes |= otm_a_bold() }
        if style.reverse { attributes |= otm_a_reverse() }
        if style.dim { attributes |= otm_a_dim() }
        if style.underline { attributes |= otm_a_underline() }
        _ = otm_put(Int32(y), Int32(x), wide, attributes, pair(for: style))
    }

    private func pair(for style: ThemedStyle) -> Int16 {
        guard style.foreground != nil || style.background != nil else { return 0 }
        let fg = style.foreground ?? -1
        let bg = style.background ?? -1
        let key = (fg + 1) * 257 + (bg + 1)
        if let known = pairs[key] { return known }
        let number = Int16(pairs.count + 1)
        guard Int32(number) < otm_color_pairs() else { return 0 }
        init_pair(number, Int16(fg), Int16(bg))
        pairs[key] = number
        return number
    }

    public func nextEvent(timeoutMilliseconds: Int) -> Event? {
        if !pendingEvents.isEmpty { return pendingEvents.removeFirst() }
        timeout(Int32(timeoutMilliseconds))
        let started = DispatchTime.now().uptimeNanoseconds
        var code: wint_t = 0
        let result = get_wch(&code)
        if result == ERR {
            // At EOF get_wch returns ERR at once, forever: many quick ERRs mean input has ended.
            let elapsed = Int(DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
            quickErrors = elapsed < max(1, timeoutMilliseconds / 2) ? quickErrors + 1 : 0
            return quickErrors > 20 ? .endOfInput : nil
        }
        quickErrors = 0
        if result == otm_key_code_yes() { return functionKey(Int32(code)) }
        if code == 27 { return afterEscape() }
        return KeyDecoder.character(code: UInt32(code))
    }

    /// An Esc: a key, Alt with a key, or the start of a terminal's late answer to the app's
    /// questions, which is dropped whole (`TerminalReplyFilter`). The codes after a key's Esc
    /// come as the next events.
    private func afterEscape() -> Event? {
        var filter = TerminalReplyFilter()
        var verdict = TerminalReplyFilter.Verdict.needMore
        var functionKeyCode: Int32?
        var first = true
        while verdict == .needMore {
            // The rest of an answer comes in the same write; a person's next key does not.
            timeout(first ? 50 : 250)
            first = false
            var code: wint_t = 0
            let result = get_wch(&code)
            if result == ERR {
                verdict = filter.end()
            } else if result == otm_key_code_yes() {
                functionKeyCode = Int32(code)
                verdict = filter.end()
            } else {
                verdict = filter.feed(UInt32(code))
            }
        }
        var events: [Event] = []
        if case .keys(let codes) = verdict {
            events.append(.key(.escape))
            events += codes.compactMap { KeyDecoder.character(code: $0) }
        }
        if let functionKeyCode, let event = functionKey(functionKeyCode) { events.append(event) }
        guard !events.isEmpty else { return nil }
        pendingEvents += events.dropFirst()
        return events[0]
    }

    private func functionKey(_ code: Int32) -> Event? {
        switch code {
        case otm_key_resize():
            lastFrame = nil
            // Sent again at the new size (a Kitty picture replaced by id; Sixel's cells redrawn).
            removePictures()
            return .resize(width: size.width, height: size.height)
        case otm_key_btab(): return .key(.backTab)
        case otm_key_mouse(): return mouseEvent()
        case KEY_UP: return .key(.up)
        case KEY_DOWN: return .key(.down)
        case KEY_LEFT: return .key(.left)
        case KEY_RIGHT: return .key(.right)
        case KEY_PPAGE: return .key(.pageUp)
        case KEY_NPAGE: return .key(.pageDown)
        case KEY_HOME: return .key(.home)
        case KEY_END: return .key(.end)
        case KEY_BACKSPACE: return .key(.backspace)
        case KEY_DC: return .key(.delete)
        case KEY_ENTER: return .key(.enter)
        default: return nil
        }
    }

    private func mouseEvent() -> Event? {
        var report = MEVENT()
        guard getmouse(&report) == OK else { return nil }
        let x = Int(report.x)
        let y = Int(report.y)
        if otm_is_wheel_up(report.bstate) != 0 { return .mouse(.wheelUp, x: x, y: y) }
        if otm_is_wheel_down(report.bstate) != 0 { return .mouse(.wheelDown, x: x, y: y) }
        if otm_is_click(report.bstate) != 0 { return .mouse(.click, x: x, y: y) }
        return nil
    }

    /// SIGINT, SIGTERM and SIGHUP give the terminal back before the process ends.
    private static func installSignalHandlers() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                endwin()
                _exit(128 + received)
            }
        }
    }
}
