import APIClient
import Foundation
import OnTheMapModels

/// The live class map: events from the `LiveFeed` merged into the store without moving the
/// selection or the table's scroll position.
extension AppViewModel {
    /// Starts the live feed, if the app has one (after a login).
    func startLive() {
        live?.start { [weak self] event in self?.applyLive(event) }
    }

    /// Merges one event: rows into the store, a toast for a classmate's new post. The selection
    /// stays on its row (by objectId); a table scrolled down keeps the selected row where it was on
    /// screen, one at the top stays at the top (where new rows arrive); when the selected row goes,
    /// its neighbour takes the selection.
    public func applyLive(_ event: LiveEvent) {
        let before = visibleRows
        let oldIndex = browse.selectedIndex(in: before)
        switch event {
        case .firstPage(let page):
            store.merge(firstPage: page)
        case .change(let op, let row):
            store.apply(op, row)
            if op == .create, !viewer.owns(row) { show(toast: LiveFeed.toast(for: row)) }
            // A moderator's subscription has no `where`: a row leaves it only when the server
            // changed who this account is (Docs/Access.md: a demoted moderator's hidden rows
            // leave). Ask the role again, so that the keys offered follow it.
            if op == .leave, isModerator { learnRole() }
        case .live, .reconnecting, .refused:
            return
        }
        let after = visibleRows
        guard let oldIndex else {
            browse.repair(in: after)
            return
        }
        if let newIndex = browse.selectedIndex(in: after) {
            // Scrolled down, the view stays put; at the top it stays at the top, where new rows arrive.
            if browse.tableOffset > 0 { browse.tableOffset = max(0, browse.tableOffset + newIndex - oldIndex) }
        } else if !after.isEmpty {
            browse.selectedID = after[min(oldIndex, after.count - 1)].objectId
        } else {
            browse.selectedID = nil
        }
    }
}
