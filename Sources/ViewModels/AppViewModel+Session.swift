import APIClient
import Foundation
import OnTheMapModels

/// Logging in and out, and browsing the cached copy when the server cannot be reached.
extension AppViewModel {
    /// Sends the login (or sign-up) form; on success browses and downloads the locations, on
    /// "cannot reach the server" offers the cached copy.
    public func submitLogin() {
        Task {
            guard let session = await login.submit() else {
                offerOffline()
                return
            }
            adopt(session)
        }
    }

    /// Browses as `session` and downloads the locations (after any kind of login).
    func adopt(_ session: UserSession) {
        self.session = session
        browse = BrowseState()
        phase = .browsing
        refresh()
        learnRole()
        startLive()
    }

    /// Deletes the session (a failure is only reported: the app forgets it anyway) and goes back
    /// to a fresh login form.
    public func logOut() {
        Task {
            do throws(APIError) {
                if session != nil { try await api.logOut() }
            } catch {
                show(toast: "Logged out here; the server said: \(error.userMessage)")
            }
            session = nil
            // A provider's token was never kept; the flow that had it goes too, so the next
            // "Log in with …" asks the provider again.
            cancelDeviceLogin()
            posting = nil
            isConfirmingQuit = false
            forgetModeration()
            live?.stop()
            store.clear()
            browse = BrowseState()
            isShowingDetails = false
            isHelpOpen = false
            alert = nil
            login.reset()
            phase = .login
        }
    }

    /// After "cannot reach the server" (or an answer that is not HTTP's): offer the cached copy,
    /// if any.
    func offerOffline() {
        offersOffline = false
        switch login.lastError {
        case .cannotReachServer, .malformedAnswer: break
        default: return
        }
        guard let savedAt = store.cachedAt, let message = login.alert else { return }
        offersOffline = true
        login.alert =
            message + " Press o to browse the copy saved \(AgeText.text(from: savedAt, now: clock())), offline."
    }

    /// Browses the cached copy without a session (posting needs one; Refresh retries the server).
    public func browseOffline() {
        guard offersOffline, store.showCache() else { return }
        offersOffline = false
        login.alert = nil
        session = nil
        browse = BrowseState()
        browse.repair(in: visibleRows)
        phase = .browsing
        show(toast: "Offline: r retries the server, L goes back to log in", seconds: 6)
    }
}
