import ViewModels

/// Where a binding applies: the screen or overlay that has the keys. The app looks a key up in
/// a list of contexts, most specific first (the Map pane, then browsing in general).
public enum KeyContext: String, Sendable, Hashable, CaseIterable {
    case global
    case login
    /// The login form in sign-up mode: its words for the keys whose meaning changes.
    case signUp
    /// The login form with a button focused (letters press or quit instead of typing).
    case loginButton
    case posting
    /// The posting form past its fields (finding, the preview, the overwrite question, posting),
    /// where Esc steps back to the fields.
    case postingPreview
    /// The posting form with a button focused.
    case postingButton
    /// A device login's code on screen (Facebook, OAuth), while it waits for approval.
    case deviceLogin
    case alert
    case quitQuestion
    case help
    case filter
    case details
    case map, table, cards
    case browse
    /// The main view for a moderator: bindings a student never sees (footer, help, dispatch).
    case moderator
    /// A y / n question about your data or a moderation act.
    case confirmation
    /// A moderator typing why a row is hidden.
    case reason
    /// The "Go to" prompt: a place or a classmate's name, with completions.
    case goTo

    /// The heading of this context in the documentation's key table.
    public var title: String {
        switch self {
        case .global: "Anywhere"
        case .login: "Login form"
        case .signUp: "Login form, signing up"
        case .loginButton: "Login form, on a button"
        case .posting: "Posting form"
        case .postingPreview: "Posting form, past the fields"
        case .postingButton: "Posting form, on a button"
        case .deviceLogin: "Device login (code on screen)"
        case .alert: "Alert"
        case .quitQuestion: "Quit question"
        case .help: "Help overlay"
        case .filter: "Typing a filter"
        case .details: "Pin details (Map)"
        case .map: "Map"
        case .table: "Table"
        case .cards: "Cards"
        case .browse: "Main view"
        case .moderator: "Main view, moderators only"
        case .confirmation: "Delete / show again question"
        case .reason: "Typing why a row is hidden"
        case .goTo: "Go to (typing a place or a name)"
        }
    }

    /// The contexts of the login form, most specific first (the screen's footer and the keys).
    public static func loginForm(signUp: Bool, onButton: Bool) -> [KeyContext] {
        (onButton ? [.loginButton] : []) + (signUp ? [.signUp] : []) + [.login]
    }

    /// The contexts of the posting form at `step`, most specific first. Past the fields (and
    /// until it is done) Esc steps back to them (`PostingViewModel.cancel()`).
    public static func postingForm(step: PostingStep, onButton: Bool) -> [KeyContext] {
        let pastTheFields: Bool
        switch step {
        case .enter, .done: pastTheFields = false
        case .geocoding, .confirm, .overwrite, .posting: pastTheFields = true
        }
        return (onButton ? [.postingButton] : []) + (pastTheFields ? [.postingPreview] : []) + [.posting]
    }

    /// The contexts of the main view with `pane` up, most specific first; a moderator's last.
    public static func browsing(_ pane: Pane, moderator: Bool = false) -> [KeyContext] {
        let contexts: [KeyContext] =
            switch pane {
            case .map: [.map, .browse]
            case .table: [.table, .browse]
            case .cards: [.cards, .browse]
            }
        return moderator ? contexts + [.moderator] : contexts
    }
}
