/// A key the app reacts to.
public enum Key: Sendable, Hashable {
    case character(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, pageUp, pageDown, home, end
    /// Ctrl plus a letter (lowercase), e.g. Ctrl-C is `.control("c")`.
    case control(Character)
}

/// What a mouse did, in cell coordinates.
public enum MouseAction: Sendable, Hashable {
    case click, wheelUp, wheelDown
}

/// Everything the run loop can receive from a backend.
public enum Event: Sendable, Hashable {
    case key(Key)
    case mouse(MouseAction, x: Int, y: Int)
    case resize(width: Int, height: Int)
    /// Input ended (EOF on stdin, or the terminal went away).
    case endOfInput
}

/// Draws frames and reads events. The ncurses backend is the live one; tests use none.
@MainActor
public protocol Backend: AnyObject {
    /// Columns and rows of the terminal now.
    var size: (width: Int, height: Int) { get }
    /// Shows `buffer`, sending only what changed since the last frame.
    func draw(_ buffer: Buffer)
    /// Shows `buffer` and then `pictures` over it, in order, sending each only when it differs
    /// from the last one of its `id`; the live backend draws them with the terminal's image
    /// protocol.
    func draw(_ buffer: Buffer, pictures: [PictureScene])
    /// Gives the terminal back and stops the process (Ctrl-Z); returns when it is continued, and
    /// the next frame is drawn whole.
    func suspend()
    /// Whether `draw` shows the pictures it is given (the terminal shows images, and the last
    /// one could be made).
    var showsPictures: Bool { get }
    /// Whether a picture replaces the text of the cells it covers, so that nothing drawn before
    /// it shows through (iTerm2's inline images).
    var picturesCoverText: Bool { get }
    /// The most cells a picture may cover (the terminal's largest Sixel picture), nil: any.
    var pictureLimit: PictureLimit? { get }
    /// The next event, or nil after `timeoutMilliseconds` without one.
    func nextEvent(timeoutMilliseconds: Int) -> Event?
    /// Puts `text` (a cleaned link) on the clipboard, outside the cell grid: the live backend
    /// writes `TerminalEscape.clipboard` to the terminal after the frame.
    func setClipboard(_ text: String)
    /// Moves the terminal's cursor to `spot` after a frame, shown when `visible` (accessible
    /// mode), hidden otherwise.
    func placeCursor(_ spot: CursorSpot?, visible: Bool)
}

extension Backend {
    public func placeCursor(_ spot: CursorSpot?, visible: Bool) {}
    public func draw(_ buffer: Buffer, pictures: [PictureScene]) { draw(buffer) }
    public func suspend() {}
    public var showsPictures: Bool { false }
    public var picturesCoverText: Bool { false }
    public var pictureLimit: PictureLimit? { nil }
}

/// A cell the terminal cursor sits on.
public struct CursorSpot: Sendable, Hashable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
