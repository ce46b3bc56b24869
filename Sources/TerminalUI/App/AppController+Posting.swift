import Foundation
import ViewModels

extension AppController {
    func handlePostingKey(_ key: Key) {
        guard let posting else { return }
        if posting.alert != nil {
            if [.enter, .escape, .character(" ")].contains(key) { posting.alert = nil }
            return
        }
        switch key {
        case .escape:
            if posting.cancel() { self.posting = nil }
        case .tab, .down: posting.focusNext()
        case .backTab, .up: posting.focusNext(forward: false)
        case .left: if posting.chosen != nil { posting.choice = max(0, posting.choice - 1) }
        case .right: if posting.chosen != nil { posting.choice += 1 }
        case .backspace, .delete: posting.deleteBackward()
        case .enter: pressPrimary(posting)
        case .character(let character):
            if posting.step == .enter, posting.focus == .location || posting.focus == .link {
                posting.type(character)
            } else if character == " " {
                pressPrimary(posting)
            }
        default: break
        }
        if case .confirm(let result) = posting.step { posting.choice = min(posting.choice, result.alternatives.count) }
    }

    func pressPrimary(_ posting: PostingViewModel) {
        if posting.focus == .cancel {
            if posting.cancel() { self.posting = nil }
            return
        }
        switch posting.step {
        case .enter:
            if posting.focus == .location {
                posting.focusNext()
            } else {
                posting.findLocation()
            }
        case .confirm, .overwrite:
            posting.finish { [weak self] objectId in
                guard let self else { return }
                self.posting = nil
                self.browse.filter = ""
                self.show(toast: "Your location is posted")
                self.refresh(select: objectId)
            }
        default: break
        }
    }

    func handleMouse(_ action: MouseAction, x: Int, y: Int) {
        guard let frame = lastFrame else { return }
        if action != .click {
            guard phase == .main, posting == nil else { return }
            let rows = visibleRows
            if browse.pane == .map {
                let area = mapArea
                let factor = action == .wheelUp ? 2.0 : 0.5
                changeMap { $0.zoom(by: factor, aroundColumn: Double(x - area.x) + 0.5, row: Double(y - area.y) + 0.5) }
            } else {
                moveSelection(action == .wheelUp ? -3 : 3, rows)
            }
            return
        }
        guard let target = frame.target(atX: x, y: y) else { return }
        switch target {
        case .button("dismiss"):
            if phase == .login {
                login.alert = nil
            } else if let posting, posting.alert != nil {
                posting.alert = nil
            } else {
                alert = nil
            }
        case .button("submit"): submitLogin()
        case .button("switch"): login.toggleMode()
        case .field(let index):
            let fields = login.fields
            if index < fields.count { login.focus = fields[index] }
        case .button("logout"): logOut()
        case .button("pin"): openPosting()
        case .button("refresh"): refresh()
        case .button("primary"): if let posting { posting.focus = .primary; pressPrimary(posting) }
        case .button("cancel"): if let posting, posting.cancel() { self.posting = nil }
        case .pane(let index): if let pane = Pane(rawValue: index) { browse.pane = pane }
        case .row(let objectId):
            if browse.selectedID == objectId, browse.pane != .map, let row = selected(visibleRows) {
                openLink(of: row)
            } else {
                browse.selectedID = objectId
                if browse.pane == .map { annotationOpen = true }
            }
        case .button: break
        }
    }
}
