/// One row of the key table: in `context`, `keys` ask for `action`. `help` is its line in the
/// `?` overlay and the documentation; `footer`, when set, is its short word in the footer.
public struct KeyBinding: Sendable, Hashable {
    public var context: KeyContext
    public var action: Action
    public var keys: [Key]
    public var help: String
    public var footer: String?

    public init(_ context: KeyContext, _ action: Action, _ keys: [Key], _ help: String, footer: String? = nil) {
        self.context = context
        self.action = action
        self.keys = keys
        self.help = help
        self.footer = footer
    }
}
