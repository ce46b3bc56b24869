import SafeText
import ViewModels

/// `y`: the selected row's link onto the clipboard — only the link as `LinkPolicy` cleans and
/// completes it, or nothing (with the reason) when the policy refuses it.
extension AppController {
    func copySelectedLink() {
        guard let row = app.selectedRow else { return }
        switch LinkPolicy.decide(row.mediaURL) {
        case .open(let url):
            pendingClipboard = url
            app.show(toast: "Copied \(SafeText.truncate(url, toWidth: 50))")
        case .refuse(let reason):
            app.show(toast: reason.replacingOccurrences(of: "Not opening", with: "Not copying"), seconds: 6)
        }
    }
}
