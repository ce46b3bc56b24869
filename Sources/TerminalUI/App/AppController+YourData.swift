import ViewModels

/// The question before deleting your pin or showing a row again, and a moderator's reason for
/// hiding one: boxes over the main view, drawn like the quit question (texts cleaned by `Overlay`).
extension AppController {
    func drawYourDataOverlays(_ frame: inout Frame) {
        if let asked = app.confirmation {
            let title =
                switch asked.act {
                case .deletePin: "Delete your pin?"
                case .unhide: "Show again?"
                }
            Overlay.alert(&frame.buffer, title: title, message: asked.question, button: "y / n", ascii: ascii)
        } else if let prompt = app.hidePrompt {
            let cursor = ascii ? "_" : "▏"
            var message =
                "Hide \(prompt.subject)? Its owner and moderators still see it, with the reason. "
                + "Reason: \(prompt.reason)\(cursor) (\(prompt.reason.utf8.count)/\(HidePrompt.maximumBytes))"
            if let problem = prompt.problem { message += " — \(problem)" }
            Overlay.alert(
                &frame.buffer, title: "Hide a row", message: message, button: "Enter hide · Esc cancel", ascii: ascii)
        }
    }
}
