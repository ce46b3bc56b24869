/// The clickable buttons of the screens; a click asks for the button's action.
public enum Button: Sendable, Hashable, CaseIterable {
    case dismiss, submit, switchMode, logout, pin, refresh, primary, cancel
    /// The device login's [ Open in browser ] and [ Cancel ].
    case openDeviceLoginURL, cancelDeviceLogin

    /// What clicking it asks for.
    public var action: Action {
        switch self {
        case .dismiss: .dismiss
        case .submit: .submit
        case .switchMode: .toggleSignUp
        case .logout: .logOut
        case .pin: .post
        case .refresh: .refresh
        case .primary: .pressButton
        case .cancel: .cancel
        case .openDeviceLoginURL: .openDeviceLoginURL
        case .cancelDeviceLogin: .cancelDeviceLogin
        }
    }
}
