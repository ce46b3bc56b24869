/// One terminal cell: a character (a grapheme, possibly two columns wide) and its style.
///
/// The right half of a wide character is a `continuation` cell; backends skip it.
public struct Cell: Sendable, Hashable {
    public var character: Character
    public var style: Style
    public var isContinuation: Bool

    public init(_ character: Character = " ", style: Style = .plain, isContinuation: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
    }

    public static let blank = Cell()
}
