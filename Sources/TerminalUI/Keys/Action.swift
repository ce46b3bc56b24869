/// Everything a key (or a click on a button) can ask the app for. The key table maps keys to
/// these; `AppController.perform` is the one place that carries them out.
public enum Action: String, Sendable, Hashable, CaseIterable {
    // Anywhere
    case quitNow, quit, suspend
    // Forms (login, posting)
    case nextField, previousField, deleteBackward, clearField, submit, toggleSignUp
    case pressButton, cancel, nextPlace, previousPlace
    // Device login (Facebook, OAuth): start, open the URL, cancel
    case facebookLogin, openDeviceLoginURL, cancelDeviceLogin
    // Alerts, help, the quit question
    case dismiss, browseOffline, closeHelp, confirmQuit, cancelQuit
    // Browsing
    case nextPane, previousPane, showMap, showTable, showCards
    case selectNext, selectPrevious, pageDown, pageUp, selectFirst, selectLast, nextMatch, previousMatch
    case openLink, copyLink, cycleSort, showOnMap, editFilter, finishFilter, clearFilter, post, refresh, logOut, help
    // Map
    case panLeft, panRight, panUp, panDown, zoomIn, zoomOut, wholeWorld, nextPin, previousPin
    case centerOnSelection, fitPins, fitAllPins
    case showDetails, closeDetails
    // Your data and moderation (Docs/Access.md): delete your pin, hide / show a row (moderators),
    // the y / n question and the typed reason
    case deleteOwnPin, hideRow, confirmAsked, cancelAsked, submitReason, cancelReason
    // Go to a place or a classmate by name: open the prompt, go, close it, step through completions
    case openGoTo, submitGoTo, cancelGoTo, nextCompletion, previousCompletion
}
