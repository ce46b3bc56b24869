import OnTheMapModels

/// Who is looking at the class's rows: the one place the app asks "is this row mine?" and "may I
/// hide it?". Every pane, key command and accessible view asks a `Viewer` (`AppViewModel.viewer`,
/// `MainModel.viewer`), so the answer cannot differ between the map, the table, the cards and the
/// words; no other client file compares a row's `uniqueKey` with the account's key (a test reads
/// the sources to keep it so). The server decides for itself (Docs/Access.md); this is the app's
/// view of the same rule, for what it shows and offers.
public struct Viewer: Sendable, Hashable {
    /// The logged-in account's key, nil when nobody is logged in (offline, or before login).
    public var accountKey: String?
    /// A moderator sees hidden rows and may hide or show any row.
    public var isModerator: Bool

    public init(accountKey: String? = nil, isModerator: Bool = false) {
        self.accountKey = accountKey
        self.isModerator = isModerator
    }

    /// Whether `row` is the viewer's own: false for everyone when nobody is logged in.
    public func owns(_ row: StudentInformation) -> Bool {
        guard let accountKey else { return false }
        return row.uniqueKey == accountKey
    }

    /// Whether the viewer may hide `row` (or show it again): moderators, any row.
    public func mayHide(_ row: StudentInformation) -> Bool {
        accountKey != nil && isModerator
    }

    /// Whether the viewer may delete `row` from the app: their own rows.
    public func mayDelete(_ row: StudentInformation) -> Bool {
        owns(row)
    }

    /// The viewer's rows among `rows`, in their order.
    public func own(_ rows: [StudentInformation]) -> [StudentInformation] {
        rows.filter(owns)
    }
}
