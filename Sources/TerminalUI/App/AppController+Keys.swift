import Foundation
import OnTheMapModels
import ViewModels
import WorldMap

extension AppController {
    func handleLoginKey(_ key: Key) {
        if login.alert != nil {
            if key == .character("o"), offlineOffered { browseOffline() }
            if [.enter, .escape, .character(" ")].contains(key) { login.alert = nil }
            return
        }
        guard !login.isBusy else { return }
        switch key {
        case .tab, .down: login.focusNext()
        case .backTab, .up: login.focusNext(forward: false)
        case .escape: shouldQuit = true
        case .control("s"): login.toggleMode()
        case .backspace, .delete: login.deleteBackward()
        case .control("u"): login.clearField()
        case .enter: if login.enter() { submitLogin() }
        case .character(let character):
            if login.focus == .switchMode || login.focus == .submit {
                if character == " " { handleLoginKey(.enter) }
                if character == "q" { shouldQuit = true }
            } else {
                login.type(character)
            }
        default: break
        }
    }

    func handleMainKey(_ key: Key) {
        if confirmQuit {
            if key == .character("y") { shouldQuit = true }
            if [.character("n"), .escape, .enter].contains(key) { confirmQuit = false }
            return
        }
        if alert != nil {
            if [.enter, .escape, .character(" "), .character("q")].contains(key) { alert = nil }
            return
        }
        if helpOpen {
            if [.escape, .character("?"), .character("q"), .enter].contains(key) { helpOpen = false }
            return
        }
        if posting != nil {
            handlePostingKey(key)
            return
        }
        if browse.isEditingFilter {
            handleFilterKey(key)
            return
        }
        let rows = visibleRows
        if annotationOpen {
            switch key {
            case .enter, .character("o"): if let row = selected(rows) { openLink(of: row) }
            case .escape: annotationOpen = false
            case .character("n"), .character("]"): stepPin(1, rows)
            case .character("N"), .character("["): stepPin(-1, rows)
            case .character("q"): quit()
            default: break
            }
            return
        }
        if browse.pane == .map, handleMapKey(key, rows) { return }
        switch key {
        case .character("q"): quit()
        case .tab: browse.cyclePane(forward: true)
        case .backTab: browse.cyclePane(forward: false)
        case .character("1"), .character("2"), .character("3"):
            if case .character(let digit) = key, let number = digit.wholeNumberValue,
                let pane = Pane(rawValue: number - 1)
            {
                browse.pane = pane
            }
        case .character("j"), .down: moveSelection(browse.pane == .cards ? 1 : 1, rows)
        case .character("k"), .up: moveSelection(-1, rows)
        case .right, .character("l"): if browse.pane == .cards { moveSelection(1, rows) }
        case .left, .character("h"): if browse.pane == .cards { moveSelection(-1, rows) }
        case .pageDown: moveSelection(pageStep, rows)
        case .pageUp: moveSelection(-pageStep, rows)
        case .character("g"), .home: browse.jump(toTop: true, in: rows)
        case .character("G"), .end: moveSelection(rows.count, rows)
        case .enter: if let row = selected(rows) { openLink(of: row) }
        case .character("/"): browse.isEditingFilter = true
        case .character("n"): moveSelection(1, rows)
        case .character("N"): moveSelection(-1, rows)
        case .escape: browse.filter = ""
        case .character("?"): helpOpen = true
        case .character("p"): openPosting()
        case .character("r"): refresh()
        case .character("L"): logOut()
        case .character("m"):
            if let row = selected(rows) {
                changeMap { $0.setZoom(max($0.zoom, 8)) }
                changeMap { $0.center(latitude: row.latitude, longitude: row.longitude) }
                browse.pane = .map
            }
        default: break
        }
    }

    var pageStep: Int { max(1, (lastFrame?.buffer.height ?? 24) - 7) }

    func selected(_ rows: [StudentInformation]) -> StudentInformation? {
        browse.selectedIndex(in: rows).map { rows[$0] }
    }

    func moveSelection(_ delta: Int, _ rows: [StudentInformation]) {
        browse.move(by: delta, in: rows)
        // Scrolling past the end loads the next page.
        if delta > 0, browse.selectedIndex(in: rows) == rows.count - 1, store.hasMore, browse.filter.isEmpty {
            Task {
                await store.loadNextPage()
                show(toast: "Loaded \(store.locations.count) locations")
            }
        }
    }

    func stepPin(_ delta: Int, _ rows: [StudentInformation]) {
        browse.move(by: delta, in: rows)
        if let row = selected(rows), map.zoom > 1 {
            changeMap { $0.center(latitude: row.latitude, longitude: row.longitude) }
        }
    }

    /// Map keys: arrows/hjkl pan, + - zoom, 0 resets, n/N [ ] step pins, Enter shows the pin.
    func handleMapKey(_ key: Key, _ rows: [StudentInformation]) -> Bool {
        switch key {
        case .left, .character("h"): changeMap { $0.pan(columns: -max(1, $0.width / 8), rows: 0) }
        case .right, .character("l"): changeMap { $0.pan(columns: max(1, $0.width / 8), rows: 0) }
        case .up, .character("k"): changeMap { $0.pan(columns: 0, rows: -max(1, $0.height / 6)) }
        case .down, .character("j"): changeMap { $0.pan(columns: 0, rows: max(1, $0.height / 6)) }
        case .character("+"), .character("="), .character("a"): zoomKeepingSelection(2, rows)
        case .character("-"), .character("z"): zoomKeepingSelection(0.5, rows)
        case .character("0"): map = MapView()
        case .character("n"), .character("]"): stepPin(1, rows)
        case .character("N"), .character("["): stepPin(-1, rows)
        case .enter:
            browse.repair(in: rows)
            annotationOpen = selected(rows) != nil
        default: return false
        }
        return true
    }

    /// Zooms so that the selected pin stays where it is on screen (else around the centre).
    func zoomKeepingSelection(_ factor: Double, _ rows: [StudentInformation]) {
        let pin = selected(rows)
        changeMap { viewport in
            if let pin, let cell = viewport.cell(latitude: pin.latitude, longitude: pin.longitude) {
                viewport.zoom(by: factor, aroundColumn: Double(cell.column) + 0.5, row: Double(cell.row) + 0.5)
            } else {
                viewport.zoom(by: factor)
            }
        }
    }

    /// The map's rectangle on screen now.
    var mapArea: Rect {
        let size = (lastFrame?.buffer.width ?? 80, lastFrame?.buffer.height ?? 24)
        return MapPane.mapRect(MainScreen.contentRect(width: size.0, height: size.1))
    }

    /// Changes the map view through a viewport of the size it is drawn at.
    func changeMap(_ change: (inout Viewport) -> Void) {
        let area = mapArea
        map.update(width: area.width, height: area.height, change)
    }

    func handleFilterKey(_ key: Key) {
        switch key {
        case .enter: browse.isEditingFilter = false
        case .escape:
            browse.filter = ""
            browse.isEditingFilter = false
        case .backspace, .delete: if !browse.filter.isEmpty { browse.filter.removeLast() }
        case .character(let character): browse.filter.append(character)
        default: return
        }
        browse.repair(in: visibleRows)
    }

    func quit() {
        if posting?.isWorking == true {
            confirmQuit = true
        } else {
            shouldQuit = true
        }
    }
}
