import APIClient
import Foundation
import OnTheMapModels

/// Starting with a session kept from an earlier run (`onthemap login`): no login form while the
/// server still accepts it; back to the form, with a sentence, when it does not.
extension AppViewModel {
    /// Browses at once with `stored`, and checks it in the background: the server's answer for
    /// the session's own user carries the email only while the session is alive
    /// (`expectsEmail`: the v1 dialect); a 401/403 or a missing email sends the app back to the
    /// login form. Other failures (server down) leave the session as it is.
    public func resume(_ stored: UserSession, expectsEmail: Bool) {
        session = stored
        browse = BrowseState()
        phase = .browsing
        refresh()
        startLive()
        sessionCheck = Task {
            let valid: Bool
            do throws(APIError) {
                let user = try await api.publicUser(key: stored.accountKey)
                valid = !expectsEmail || user.email != nil
                isModerator = user.isModerator
            } catch {
                if case .refused(let status, _) = error, status == 401 || status == 403 { valid = false } else { valid = true }
            }
            if !valid { sessionRejected() }
        }
    }

    /// The saved session is no longer good: back to a fresh login form that says why.
    func sessionRejected() {
        guard session != nil, phase != .login else { return }
        session = nil
        live?.stop()
        posting = nil
        isConfirmingQuit = false
        forgetModeration()
        isShowingDetails = false
        phase = .login
        login.reset()
        login.alert = "Your saved session has ended. Log in again."
    }
}
