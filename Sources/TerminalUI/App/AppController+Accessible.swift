import SafeText
import ViewModels

/// Accessible mode's sentences: after a map action, what it did in words (`MapWords.sentence`),
/// kept on the Map pane's first line until the next one.
extension AppController {
    /// A new toast becomes the announcement, which stays after the toast is taken down.
    func noteToast() {
        guard let toast = app.toast, toast != notedToast else { return }
        notedToast = toast
        announcement = toast.text
    }

    func announce(_ action: Action) {
        noteToast()
        guard app.phase == .browsing, app.browse.pane == .map, !app.isHelpOpen else { return }
        let area = mapArea
        guard
            let sentence = MapWords.sentence(
                for: action, viewport: map.viewport(width: area.width, height: area.height), rows: app.visibleRows,
                selected: app.selectedRow, viewer: app.viewer, home: app.ownPin, now: app.clock())
        else { return }
        announcement = sentence
    }

    /// The sentence the last map action ended in (accessible mode), for tests.
    public var lastAnnouncement: String? { announcement }
}

/// The cursor where the eyes would be: on the selected row, the focused field (at its caret) or
/// button, the alert's button, the help box. Worked out from the state and the frame's hotspots;
/// in accessible mode the frame is then made plain (`AccessibleText.plain`).
extension AppController {
    func placeCursor(in frame: Frame) -> Frame {
        var frame = frame
        frame.cursor = cursorSpot(in: frame)
        if accessible, app.phase == .login, app.deviceLogin == nil, let field = app.login.flashedField {
            // A refused field flashes red: say it too, on the line above the footer.
            let y = frame.buffer.height - 2
            frame.buffer.fill(Rect(x: 0, y: y, width: frame.buffer.width, height: 1))
            frame.buffer.put(
                "\(Self.name(of: field)) is required.", x: 1, y: y, style: .danger, maxWidth: frame.buffer.width - 2)
        }
        if accessible { frame.buffer = AccessibleText.plain(frame.buffer) }
        return frame
    }

    func cursorSpot(in frame: Frame) -> CursorSpot? {
        func spot(_ target: HotTarget) -> CursorSpot? {
            // A card (a box) takes the cursor on its first line inside.
            frame.hotspots.last { $0.target == target }.map { hotspot in
                let inset = hotspot.rect.height > 2 ? 1 : 0
                return CursorSpot(x: hotspot.rect.x + inset, y: hotspot.rect.y + inset)
            }
        }
        if app.isConfirmingQuit { return find("[ y / n ]", in: frame.buffer) }
        if app.hasAlert, let ok = spot(.button(.dismiss)) { return ok }
        switch app.phase {
        case .login:
            if app.deviceLogin != nil { return spot(.button(.openDeviceLoginURL)) ?? spot(.button(.cancelDeviceLogin)) }
            switch app.login.focus {
            case .submit: return spot(.button(.submit))
            case .switchMode: return spot(.button(.switchMode))
            case .provider:
                return app.login.fields.firstIndex(of: app.login.focus).flatMap { spot(.field($0)) }
            default:
                return caret(in: frame.buffer)
                    ?? app.login.fields.firstIndex(of: app.login.focus).flatMap { spot(.field($0)) }
            }
        case .posting:
            guard let posting = app.posting else { return nil }
            if posting.alert != nil, let ok = spot(.button(.dismiss)) { return ok }
            switch posting.focus {
            case .location, .link:
                return caret(in: frame.buffer) ?? find("Finding", in: frame.buffer) ?? find("Posting", in: frame.buffer)
                    ?? spot(.button(.cancel))
            case .primary: return spot(.button(.primary)) ?? spot(.button(.cancel))
            case .cancel: return spot(.button(.cancel))
            }
        case .browsing:
            if app.isHelpOpen { return find("Keys", in: frame.buffer) }
            if app.browse.isEditingFilter || app.goTo != nil { return caret(in: frame.buffer) }
            if let id = app.selectedRow?.objectId, let row = spot(.row(id)) { return row }
            return spot(.pane(app.browse.pane.rawValue))
        }
    }

    /// The focused text field's caret (`▏`), where typing goes.
    func caret(in buffer: Buffer) -> CursorSpot? {
        for y in 0..<buffer.height {
            for x in 0..<buffer.width where buffer[x, y].character == "▏" { return CursorSpot(x: x, y: y) }
        }
        return nil
    }

    /// The first cell of `text` on screen (cells, so wide characters count as two).
    func find(_ text: String, in buffer: Buffer) -> CursorSpot? {
        let wanted = Array(text)
        guard let first = wanted.first else { return nil }
        for y in 0..<buffer.height {
            for x in 0..<buffer.width where buffer[x, y].character == first {
                if wanted.indices.allSatisfy({ x + $0 < buffer.width && buffer[x + $0, y].character == wanted[$0] }) {
                    return CursorSpot(x: x, y: y)
                }
            }
        }
        return nil
    }
}

extension AppController {
    /// The last sentence or notice (a toast once it is taken down) stays on the line above the
    /// footer of the Table and Cards panes, when the filter does not use it; the Map pane shows
    /// it on its first line.
    func sayAnnouncement(_ frame: inout Frame, model: MainModel) {
        guard let announcement, app.toast == nil, model.browse.pane != .map, !model.browse.isEditingFilter,
            model.browse.filter.isEmpty
        else { return }
        let y = frame.buffer.height - 2
        frame.buffer.fill(Rect(x: 0, y: y, width: frame.buffer.width, height: 1))
        frame.buffer.put(
            "Last notice: " + MapWords.spoken(SafeText.clean(announcement)), x: 1, y: y, style: .accent,
            maxWidth: frame.buffer.width - 2)
    }

    static func name(of field: LoginField) -> String {
        switch field {
        case .firstName: "First name"
        case .lastName: "Last name"
        case .email: "Email"
        case .password: "Password"
        case .invite: "Invite code"
        case .submit, .switchMode, .provider: "This"
        }
    }
}
