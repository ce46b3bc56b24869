import APIClient
import Foundation
import Observation
import OnTheMapModels

/// The fields and buttons of the login and sign-up forms, in focus order.
public enum LoginField: Sendable, Hashable {
    case firstName, lastName, email, password, invite, submit, switchMode
    /// The "Log in with …" button of `deviceProviders[index]`.
    case provider(Int)

    /// Whether the item is a button (letters press or quit instead of typing).
    public var isButton: Bool {
        switch self {
        case .submit, .switchMode, .provider: true
        default: false
        }
    }
}

/// The login screen's state machine: fields, focus, the request in flight, and what went wrong.
@MainActor
@Observable
public final class LoginViewModel {
    /// Logging in, or creating an account.
    public enum Mode: Sendable, Equatable { case logIn, signUp }

    public private(set) var mode: Mode = .logIn
    public var email = ""
    public var password = ""
    public var firstName = ""
    public var lastName = ""
    /// The invite code, asked for only when the server's sign-up policy is `invite`.
    public var invite = ""
    public var focus: LoginField = .email
    public private(set) var isBusy = false
    /// A blocking message shown in an alert until dismissed.
    public var alert: String?
    /// Why the last request failed, for the app to offer what fits (offline data when the server
    /// cannot be reached).
    public private(set) var lastError: APIError?
    /// The field that was refused as empty, to flash it.
    public private(set) var flashedField: LoginField?
    /// A hint shown under the form (the demo account on the embedded server).
    public let hint: String?
    /// Shown on the form when the password would travel over plain http:// to another machine
    /// (`PlainHTTPWarning`).
    public var transportWarning: String?
    /// Shown under the form when the screen is drawn with another terminfo entry than `$TERM`'s
    /// (none for it on this machine).
    public var terminalNote: String?
    /// The server's sign-up policy, learned when the sign-up form opens (`GET …/auth/providers`)
    /// or from a refused sign-up; nil until known, which the form treats as `open`.
    public internal(set) var signUpPolicy: SignUpPolicy?
    /// The device-login providers the server offers (Facebook, OAuth), from discovery; one
    /// "Log in with …" button each.
    public internal(set) var deviceProviders: [DeviceLoginProvider] = []
    /// The discovery under way, if any (tests await it).
    public internal(set) var discovery: Task<Void, Never>?

    let api: any OnTheMapAPI

    public init(api: any OnTheMapAPI, hint: String? = nil) {
        self.api = api
        self.hint = hint
    }

    /// The focusable items of the current mode, in order.
    public var fields: [LoginField] {
        switch (mode, signUpPolicy) {
        case (.logIn, _): [.email, .password, .submit] + deviceProviders.indices.map { LoginField.provider($0) } + [.switchMode]
        case (.signUp, .closed): [.switchMode]
        case (.signUp, .invite): [.firstName, .lastName, .email, .password, .invite, .submit, .switchMode]
        case (.signUp, _): [.firstName, .lastName, .email, .password, .submit, .switchMode]
        }
    }

    public func focusNext(forward: Bool = true) {
        let order = fields
        let index = order.firstIndex(of: focus) ?? 0
        focus = order[(index + (forward ? 1 : order.count - 1)) % order.count]
    }

    /// Switches between logging in and signing up, keeping email and password. Opening the
    /// sign-up form asks the server for its sign-up policy.
    public func toggleMode() {
        mode = mode == .logIn ? .signUp : .logIn
        focus = fields[0]
        flashedField = nil
        if mode == .signUp { discoverSignUpPolicy() }
    }

    /// Types into the focused text field.
    public func type(_ character: Character) {
        update { $0.append(character) }
        flashedField = nil
    }

    public func deleteBackward() {
        update { if !$0.isEmpty { $0.removeLast() } }
    }

    /// Empties the focused text field (Ctrl-U, as in a shell).
    public func clearField() {
        update { $0 = "" }
    }

    private func update(_ change: (inout String) -> Void) {
        switch focus {
        case .email: change(&email)
        case .password: change(&password)
        case .firstName: change(&firstName)
        case .lastName: change(&lastName)
        case .invite: change(&invite)
        case .submit, .switchMode, .provider: break
        }
    }

    /// The first required field that is empty, if any.
    public var firstEmptyField: LoginField? {
        var required: [(LoginField, String)] =
            mode == .logIn
            ? [(.email, email), (.password, password)]
            : [(.firstName, firstName), (.lastName, lastName), (.email, email), (.password, password)]
        if mode == .signUp, signUpPolicy == .invite { required.append((.invite, invite)) }
        return required.first { $0.1.trimmingCharacters(in: .whitespaces).isEmpty }?.0
    }

    /// Logs in or signs up. Empty fields are refused before any request (the field flashes).
    /// Returns the session on success; on failure sets `alert`.
    public func submit() async -> UserSession? {
        guard !isBusy else { return nil }
        if mode == .signUp, signUpPolicy == .closed {
            alert = APIError.signUpClosed(message: "").userMessage
            return nil
        }
        if let empty = firstEmptyField {
            flashedField = empty
            focus = empty
            return nil
        }
        isBusy = true
        lastError = nil
        defer { isBusy = false }
        do {
            let trimmedEmail = email.trimmingCharacters(in: .whitespaces)
            let session: UserSession
            switch mode {
            case .logIn:
                session = try await api.logIn(email: trimmedEmail, password: password)
            case .signUp:
                let code = invite.trimmingCharacters(in: .whitespaces)
                session = try await api.signUp(
                    SignUpRequest(
                        email: trimmedEmail, password: password, firstName: firstName, lastName: lastName,
                        invite: signUpPolicy == .invite && !code.isEmpty ? code : nil))
            }
            password = ""
            return session
        } catch {
            alert = mode == .signUp ? signUpRefused(error) : logInRefused(error)
            lastError = error
            // A refused password is retyped, not edited: clear it and put the cursor there.
            if case .invalidCredentials = error {
                password = ""
                focus = .password
            }
            return nil
        }
    }

    /// Clears the flash after it has been shown.
    public func clearFlash() {
        flashedField = nil
    }

    /// Back to a fresh login form (after logout), keeping the email.
    public func reset() {
        mode = .logIn
        password = ""
        firstName = ""
        lastName = ""
        invite = ""
        alert = nil
        flashedField = nil
        focus = email.isEmpty ? .email : .password
    }
}
