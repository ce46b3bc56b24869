import Foundation
import APIClient
import OnTheMapModels

/// The sign-up policy (discovered when the sign-up form opens, learned again from a refusal),
/// what refusals mean, and Enter on the form.
extension LoginViewModel {
    /// Asks the server for its sign-up policy (`GET …/auth/providers`) and shapes the form after
    /// it: an invite-code field for `invite`, a notice instead of the fields for `closed`. When the
    /// server cannot be asked, the policy stays as it was (unknown reads as open; a refusal still
    /// teaches it).
    public func discoverSignUpPolicy() {
        discovery?.cancel()
        discovery = Task { [api] in
            guard let providers = try? await api.authProviders(), !Task.isCancelled else { return }
            self.deviceProviders = DeviceLoginProvider.all(in: providers)
            self.learn(providers.signUpPolicy ?? .open)
        }
    }

    /// Asks the server how it lets people in, for the "Log in with …" buttons (when the login
    /// form first shows). The sign-up policy learned on the way is kept as well.
    public func discoverProviders() {
        discoverSignUpPolicy()
    }

    /// Adopts `policy`, moving the focus to the form's first item if the one it was on is gone.
    func learn(_ policy: SignUpPolicy) {
        signUpPolicy = policy
        if !fields.contains(focus) { focus = fields[0] }
    }

    /// The alert for a refused sign-up: what the server's refusal means and what to do next. A
    /// refusal about the invite code shows the field (the server asks for one after all); one
    /// saying sign-up is closed turns the form into its notice.
    func signUpRefused(_ error: APIError) -> String {
        switch error {
        case .inviteRejected(let message):
            let hadCode = signUpPolicy == .invite && !invite.trimmingCharacters(in: .whitespaces).isEmpty
            learn(.invite)
            focus = .invite
            var reason = message.trimmingCharacters(in: .whitespaces)
            while reason.hasSuffix(".") { reason.removeLast() }
            return hadCode
                ? "The invite code was not accepted (\(reason)). Check it, or ask for a new one."
                : "This server signs people up by invitation: enter the invite code you were given."
        case .signUpClosed:
            learn(.closed)
            return error.userMessage
        case .tooManyRequests(let retryAfter, _):
            return "Too many sign-ups from this address. Try again \(RetryDelay.text(retryAfter))."
        default:
            return error.userMessage
        }
    }

    /// The alert for a refused login.
    func logInRefused(_ error: APIError) -> String {
        guard case .tooManyRequests(let retryAfter, _) = error else { return error.userMessage }
        return "Too many login attempts. Try again \(RetryDelay.text(retryAfter))."
    }

    /// Enter on the focused item: moves to the next text field, toggles the mode on the switch
    /// link, and returns true when the form should be sent (on the last text field or the button).
    public func enter() -> Bool {
        switch focus {
        case .switchMode:
            toggleMode()
            return false
        case .submit:
            return true
        default:
            let order = fields
            guard let index = order.firstIndex(of: focus), order.indices.contains(index + 1),
                order[index + 1] != .submit
            else { return true }
            focus = order[index + 1]
            return false
        }
    }
}
