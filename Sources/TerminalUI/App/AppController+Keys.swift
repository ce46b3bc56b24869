import Foundation
import ViewModels

/// Events in: a key is looked up in the key table for the contexts that are up, and its action
/// performed; a character no binding takes is typed into the focused field.
extension AppController {
    /// Routes one event.
    public func handle(_ event: Event) {
        switch event {
        case .endOfInput: app.quitNow()
        case .resize: break
        case .mouse(let action, let x, let y): handleMouse(action, x: x, y: y)
        case .key(let key): handle(key)
        }
    }

    func handle(_ key: Key) {
        if let action = keys.action(for: key, in: keyContexts) {
            perform(action)
            if accessible { announce(action) }
        } else if case .character(let character) = key {
            type(character)
        }
    }

    /// The contexts whose bindings apply now, most specific first.
    var keyContexts: [KeyContext] {
        if app.isConfirmingQuit { return [.quitQuestion] }
        if app.hasAlert { return [.alert] }
        if app.phase == .browsing, app.confirmation != nil { return [.confirmation] }
        if app.phase == .browsing, app.hidePrompt != nil { return [.reason] }
        if app.phase == .browsing, app.goTo != nil { return [.goTo] }
        switch app.phase {
        case .login:
            if app.login.isBusy { return [] }
            if app.deviceLogin != nil { return [.deviceLogin] }
            return KeyContext.loginForm(signUp: app.login.mode == .signUp, onButton: app.login.focus.isButton)
        case .posting:
            return KeyContext.postingForm(step: app.posting?.step ?? .enter, onButton: !isTypingInPosting)
        case .browsing:
            if app.isHelpOpen { return [.help] }
            if app.browse.isEditingFilter { return [.filter] }
            if app.isShowingDetails { return [.details] }
            return KeyContext.browsing(app.browse.pane, moderator: app.viewer.isModerator)
        }
    }

    var isTypingInPosting: Bool {
        guard let posting = app.posting else { return false }
        return posting.step == .enter && (posting.focus == .location || posting.focus == .link)
    }

    /// Types into the login form's field, the posting form's field or the filter.
    func type(_ character: Character) {
        switch keyContexts.first {
        case .login, .signUp: app.login.type(character)
        case .posting: app.posting?.type(character)
        case .filter: app.editFilter { $0.append(character) }
        case .reason: app.typeReason(character)
        case .goTo: app.typeGoTo(character)
        default: break
        }
    }

    /// Enter on the login form: the next field, the mode switch, or sending the form
    /// (`LoginViewModel.enter()` knows the form's fields, the invite code among them).
    func submitLoginForm() {
        if case .provider(let index) = app.login.focus {
            app.startDeviceLogin(index)
            return
        }
        guard app.login.enter() else { return }
        trace?.mark("login-submitted")
        app.submitLogin()
    }

    var pageStep: Int { max(1, (lastFrame?.buffer.height ?? 24) - 7) }

    func handleMouse(_ action: MouseAction, x: Int, y: Int) {
        guard let frame = lastFrame else { return }
        if action != .click {
            guard app.phase == .browsing else { return }
            if app.browse.pane == .map {
                let area = mapArea
                let factor = action == .wheelUp ? 2.0 : 0.5
                changeMap { $0.zoom(by: factor, aroundColumn: Double(x - area.x) + 0.5, row: Double(y - area.y) + 0.5) }
            } else {
                app.moveSelection(by: action == .wheelUp ? -3 : 3)
            }
            return
        }
        switch frame.target(atX: x, y: y) {
        case .button(let button)?:
            if button == .submit { app.login.focus = .submit }
            if button == .primary { app.posting?.focus = .primary }
            perform(button.action)
        case .field(let index)?:
            let fields = app.login.fields
            if index < fields.count { app.login.focus = fields[index] }
            if index < fields.count, case .provider(let provider) = fields[index] { app.startDeviceLogin(provider) }
        case .pane(let index)?:
            if let pane = Pane(rawValue: index) { app.browse.pane = pane }
        case .row(let objectId)?:
            if app.browse.selectedID == objectId, app.browse.pane != .map {
                app.openSelectedLink()
            } else {
                app.browse.selectedID = objectId
                if app.browse.pane == .map { app.isShowingDetails = true }
            }
        case nil: break
        }
    }
}
