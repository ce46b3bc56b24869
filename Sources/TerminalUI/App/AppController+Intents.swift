import APIClient
import Foundation
import OnTheMapModels
import ViewModels

/// What keys and clicks ask for: log in, refresh, log out, post, open a link.
extension AppController {
    func submitLogin() {
        trace?.mark("login-submitted")
        Task {
            guard let session = await login.submit() else {
                offerOffline()
                return
            }
            self.session = session
            self.phase = .main
            self.browse = BrowseState()
            self.refresh()
        }
    }

    func refresh(select objectId: String? = nil) {
        guard !isRefreshing else { return }
        isRefreshing = true
        Task {
            let worked = await store.refresh()
            isRefreshing = false
            if let objectId { browse.selectedID = objectId }
            browse.repair(in: visibleRows)
            if !worked, let message = store.lastError {
                if store.locations.isEmpty { alert = message } else { show(toast: "Offline: \(message)", seconds: 6) }
            }
        }
    }

    func logOut() {
        Task {
            do throws(APIError) {
                if session != nil { try await api.logOut() }
            } catch {
                show(toast: "Logged out here; the server said: \(error.userMessage)")
            }
            session = nil
            posting = nil
            store.clear()
            browse = BrowseState()
            annotationOpen = false
            helpOpen = false
            login.reset()
            phase = .login
        }
    }

    func openPosting() {
        guard let key = session?.accountKey else {
            show(toast: "Log in to post your location (L goes back to log in)", seconds: 6)
            return
        }
        posting = PostingViewModel(api: api, geocoder: geocoder, accountKey: key)
    }

    func openLink(of row: StudentInformation) {
        switch LinkPolicy.decide(row.mediaURL) {
        case .refuse(let reason):
            show(toast: reason, seconds: 6)
        case .open(let url):
            switch opener.open(url, onFailure: { [weak self] _ in Task { @MainActor in self?.linkFailed(url) } }) {
            case .started: show(toast: "Opening \(url)")
            case .noOpener(let reason): linkFailed(url, reason: reason)
            }
        }
    }

    func linkFailed(_ url: String, reason: String = "The browser could not open it.") {
        if !unopenedLinks.contains(url) { unopenedLinks.append(url) }
        alert = "\(reason) The link is \(url) — it will be printed when you quit."
    }

    /// After "cannot reach the server": offer the cached copy, if any.
    func offerOffline() {
        offlineOffered = false
        guard case .cannotReachServer = login.lastError, let savedAt = store.cachedAt, let message = login.alert else {
            return
        }
        offlineOffered = true
        login.alert =
            message + " Press o to browse the copy saved \(AgeText.text(from: savedAt, now: clock())), offline."
    }

    /// Browses the cached copy without a session (posting needs one; Refresh retries the server).
    func browseOffline() {
        guard store.showCache() else { return }
        login.alert = nil
        session = nil
        browse = BrowseState()
        browse.repair(in: visibleRows)
        phase = .main
        show(toast: "Offline: r retries the server, L goes back to log in", seconds: 6)
    }
}
