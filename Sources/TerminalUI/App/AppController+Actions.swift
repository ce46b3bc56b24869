import ViewModels

/// Actions out: the one place an `Action` (from a key or a button) becomes an intent of the
/// view-model or a change of the map view.
extension AppController {
    func perform(_ action: Action) {
        switch action {
        case .quitNow, .confirmQuit: app.quitNow()
        case .quit: app.quit()
        case .suspend: pendingSuspend = true
        case .cancelQuit: app.cancelQuit()
        case .dismiss: app.dismissAlert()
        case .browseOffline: app.browseOffline()
        case .help: app.isHelpOpen = true
        case .closeHelp: app.isHelpOpen = false
        // Forms
        case .nextField, .previousField:
            let forward = action == .nextField
            if let posting = app.posting {
                posting.focusNext(forward: forward)
            } else {
                app.login.focusNext(forward: forward)
            }
        case .deleteBackward:
            if app.hidePrompt != nil {
                app.deleteReasonBackward()
            } else if app.goTo != nil {
                app.deleteGoToBackward()
            } else if app.browse.isEditingFilter {
                app.editFilter { if !$0.isEmpty { $0.removeLast() } }
            } else if let posting = app.posting {
                posting.deleteBackward()
            } else {
                app.login.deleteBackward()
            }
        case .clearField: app.login.clearField()
        case .toggleSignUp: app.login.toggleMode()
        case .submit: submitLoginForm()
        case .pressButton: app.pressPostingButton()
        case .cancel: app.cancelPosting()
        case .facebookLogin: app.startFacebookLogin()
        case .openDeviceLoginURL: app.openDeviceLoginURL()
        case .cancelDeviceLogin: app.cancelDeviceLogin()
        case .nextPlace: app.choosePlace(by: 1)
        case .previousPlace: app.choosePlace(by: -1)
        // Browsing
        case .nextPane: app.browse.cyclePane(forward: true)
        case .previousPane: app.browse.cyclePane(forward: false)
        case .showMap: app.browse.pane = .map
        case .showTable: app.browse.pane = .table
        case .showCards: app.browse.pane = .cards
        case .selectNext, .nextMatch: app.moveSelection(by: 1)
        case .selectPrevious, .previousMatch: app.moveSelection(by: -1)
        case .pageDown: app.moveSelection(by: pageStep)
        case .pageUp: app.moveSelection(by: -pageStep)
        case .selectFirst: app.selectFirst()
        case .selectLast: app.selectLast()
        case .openLink: app.openSelectedLink()
        case .copyLink: copySelectedLink()
        case .cycleSort: app.cycleSort()
        case .showOnMap: showSelectionOnMap()
        case .editFilter: app.browse.isEditingFilter = true
        case .finishFilter: app.browse.isEditingFilter = false
        case .clearFilter:
            app.browse.isEditingFilter = false
            app.editFilter { $0 = "" }
        case .post: app.openPosting()
        case .refresh: app.refresh()
        case .logOut: app.logOut()
        // Map
        case .panLeft: changeMap { $0.pan(columns: -max(1, $0.width / 8), rows: 0) }
        case .panRight: changeMap { $0.pan(columns: max(1, $0.width / 8), rows: 0) }
        case .panUp: changeMap { $0.pan(columns: 0, rows: -max(1, $0.height / 6)) }
        case .panDown: changeMap { $0.pan(columns: 0, rows: max(1, $0.height / 6)) }
        case .zoomIn: zoomKeepingSelection(2)
        case .zoomOut: zoomKeepingSelection(0.5)
        case .wholeWorld: map = MapView()
        case .centerOnSelection: centerOnSelection()
        case .fitPins: fitPins(app.visibleRows)
        case .fitAllPins: fitPins(app.store.locations)
        case .nextPin: stepPin(1)
        case .previousPin: stepPin(-1)
        case .showDetails:
            app.browse.repair(in: app.visibleRows)
            app.isShowingDetails = app.selectedRow != nil
        case .closeDetails: app.isShowingDetails = false
        // Your data and moderation
        case .deleteOwnPin: app.askToDeleteOwnPin()
        case .hideRow: app.askToHideSelected()
        case .confirmAsked: app.confirm()
        case .cancelAsked: app.cancelConfirmation()
        case .submitReason: app.submitHide()
        case .cancelReason: app.cancelHide()
        // Go to
        case .openGoTo: app.openGoTo()
        case .submitGoTo:
            if let choice = app.submitGoTo() { go(to: choice) }
        case .cancelGoTo: app.cancelGoTo()
        case .nextCompletion: app.chooseGoTo(by: 1)
        case .previousCompletion: app.chooseGoTo(by: -1)
        }
    }
}
