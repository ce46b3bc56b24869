import Foundation

/// The posting form's life: opened over the main view, its primary button, closed on cancel or
/// when the post is done.
extension AppViewModel {
    /// Opens the posting form; without a session (offline) says that posting needs a login.
    public func openPosting() {
        guard let key = session?.accountKey else {
            show(toast: "Log in to post your location (L goes back to log in)", seconds: 6)
            return
        }
        posting = PostingViewModel(api: api, geocoder: geocoder, accountKey: key, precision: postingPrecision)
        phase = .posting
    }

    /// Esc / [ Cancel ]: one step back, closing the form from its first step.
    public func cancelPosting() {
        guard let posting, posting.cancel() else { return }
        closePosting()
    }

    /// Enter / the primary button: next field, Find Location, Finish or Overwrite — or Cancel
    /// when that is focused. When the post is done the form closes and the list is refreshed
    /// with the new row selected.
    public func pressPostingButton() {
        guard let posting else { return }
        if posting.focus == .cancel {
            cancelPosting()
            return
        }
        switch posting.step {
        case .enter:
            if posting.focus == .location { posting.focusNext() } else { posting.findLocation() }
        case .confirm, .overwrite:
            posting.finish { [weak self] objectId in
                guard let self else { return }
                closePosting()
                browse.filter = ""
                show(toast: "Your location is posted")
                refresh(select: objectId)
            }
        default: break
        }
    }

    /// ← → once a place is found: another of the places found.
    public func choosePlace(by delta: Int) {
        guard let posting else { return }
        switch posting.step {
        case .confirm(let result), .overwrite(let result, _):
            posting.choice = min(max(0, posting.choice + delta), result.alternatives.count)
        default: break
        }
    }

    func closePosting() {
        posting = nil
        isConfirmingQuit = false
        if phase == .posting { phase = .browsing }
    }
}
