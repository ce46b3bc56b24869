/// Tells what follows an Esc read from the terminal: a key (Esc alone, or Alt with a key), or an
/// answer the terminal sent to one of the app's questions after the app stopped waiting for it.
///
/// The app asks once, before curses starts (Kitty's graphics query, the cell size, XTSMGRAPHICS,
/// OSC 11, DA1: `GraphicsDetection`), and waits a second. Over ssh, or from a terminal that is slow
/// to start, the answers can come later, and curses then reads them as keys: Esc (which quits the
/// login screen), then `_Gi=31;OK…` typed into a field. Every such answer is a string sequence
/// (APC, OSC, DCS, PM, SOS: `Esc _`, `Esc ]`, `Esc P`, `Esc ^`, `Esc X`, ended by ST or BEL) or a
/// control sequence (`Esc [`) that curses did not know as a key; neither is ever typed by a person,
/// so both are dropped whole. Anything else after the Esc is given back as keys.
public struct TerminalReplyFilter: Sendable {
    public enum Verdict: Equatable, Sendable {
        /// Not yet known: feed the next code (or `end()` when none comes in time).
        case needMore
        /// A terminal's answer, complete: drop the Esc and every code fed.
        case reply
        /// Keys: the Esc, then the codes fed, in order.
        case keys([UInt32])
    }

    private enum State: Sendable {
        case start
        case string(escaped: Bool)
        case control
    }

    /// The longest answer kept reading: a Kitty or OSC answer is tens of bytes; past this, the
    /// rest is dropped as it comes.
    public static let longestAnswer = 4096

    private var state = State.start
    private var fed: [UInt32] = []

    public init() {}

    /// The next code after the Esc (or after the codes fed before).
    public mutating func feed(_ code: UInt32) -> Verdict {
        fed.append(code)
        switch state {
        case .start:
            switch code {
            case 0x5F, 0x5D, 0x50, 0x5E, 0x58:  // _ ] P ^ X
                state = .string(escaped: false)
                return .needMore
            case 0x5B:  // [
                state = .control
                return .needMore
            default:
                return .keys(fed)
            }
        case .string(let escaped):
            if code == 0x07 || (escaped && code == 0x5C) { return .reply }  // BEL, or ST (Esc \)
            state = .string(escaped: code == 0x1B)
            return fed.count >= Self.longestAnswer ? .reply : .needMore
        case .control:
            switch code {
            case 0x20...0x3F: return fed.count >= Self.longestAnswer ? .reply : .needMore  // parameters, intermediates
            case 0x40...0x7E: return .reply  // the final byte
            default: return .keys(fed)
            }
        }
    }

    /// No more codes came in time: an unfinished string or control sequence is still an answer
    /// (its rest comes as keys no one typed, and is read as such); anything else is keys.
    public mutating func end() -> Verdict {
        switch state {
        case .start: return .keys(fed)
        case .string, .control: return .reply
        }
    }
}
