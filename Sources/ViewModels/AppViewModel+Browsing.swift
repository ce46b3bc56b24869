import Foundation
import OnTheMapModels

/// Refreshing, moving through the rows (loading the next page at the end) and opening links.
extension AppViewModel {
    /// Downloads the first page again, unless a refresh is already out. A failure shows an alert
    /// when there is nothing to show, else a toast over the rows kept.
    public func refresh(select objectId: String? = nil) {
        guard refreshing == nil else { return }
        refreshing = Task {
            let worked = await store.refresh()
            refreshing = nil
            if let objectId { browse.selectedID = objectId }
            browse.repair(in: visibleRows)
            if !worked, let message = store.lastError {
                if store.locations.isEmpty { alert = message } else { show(toast: "Offline: \(message)", seconds: 6) }
            }
        }
    }

    /// Moves the selection by `delta` visible rows; reaching the last row loads the next page.
    public func moveSelection(by delta: Int) {
        let rows = visibleRows
        browse.move(by: delta, in: rows)
        if delta > 0, browse.selectedIndex(in: rows) == rows.count - 1, store.hasMore, browse.filter.isEmpty {
            Task {
                await store.loadNextPage()
                show(toast: "Loaded \(store.locations.count) locations")
            }
        }
    }

    /// Selects the first or the last visible row.
    public func selectFirst() { browse.jump(toTop: true, in: visibleRows) }
    public func selectLast() { moveSelection(by: visibleRows.count) }

    /// Changes the filter and keeps the selection on a row that passes it.
    public func editFilter(_ change: (inout String) -> Void) {
        change(&browse.filter)
        browse.repair(in: visibleRows)
    }

    /// Opens the selected row's link.
    public func openSelectedLink() {
        if let row = selectedRow { openLink(of: row) }
    }

    /// Hands a row's link to the opener, if `LinkPolicy` allows it; says why not otherwise.
    public func openLink(of row: StudentInformation) {
        switch LinkPolicy.decide(row.mediaURL) {
        case .refuse(let reason):
            show(toast: reason, seconds: 6)
        case .open(let url):
            let outcome = opener.open(url) { [weak self] _ in Task { @MainActor in self?.linkFailed(url) } }
            switch outcome {
            case .started: show(toast: "Opening \(url)")
            case .noOpener(let reason): linkFailed(url, reason: reason)
            }
        }
    }

    func linkFailed(_ url: String, reason: String = "The browser could not open it.") {
        if !unopenedLinks.contains(url) { unopenedLinks.append(url) }
        alert = "\(reason) The link is \(url) — it will be printed when you quit."
    }
}
