import APIClient
import Foundation
import OnTheMapModels

/// A question the main view waits on, answered y (do it) or n (don't).
public struct Confirmation: Sendable, Equatable {
    public enum Act: Sendable, Equatable {
        /// Delete your own row.
        case deletePin(objectId: String)
        /// Show a hidden row again (moderators).
        case unhide(objectId: String)
    }

    public var act: Act
    /// The question, with the row it is about (drawn through `SafeText`); answered y / n.
    public var question: String
}

/// A moderator typing why a row is hidden: the reason is required, at most `maximumBytes` bytes.
public struct HidePrompt: Sendable, Equatable {
    /// Docs/Access.md: the server takes a reason of at most 200 bytes.
    public static let maximumBytes = 200

    public var objectId: String
    /// Whose row, for the prompt ("Ada Lovelace's pin at Oslo").
    public var subject: String
    public var reason = ""
    /// Why the last Enter did not send (empty reason).
    public var problem: String?
}

/// "Your data is yours" and moderation in the app (Docs/Access.md): deleting your own pin after a
/// confirmation, and for moderators hiding a row with a reason and showing it again. The store
/// changes as soon as the server says yes, so every pane shows it without a download; hidden rows
/// stay in the list of the owner and of moderators, marked (`StudentInformation.hidden`).
extension AppViewModel {
    /// Your rows in the store, newest first.
    public var ownRows: [StudentInformation] { viewer.own(store.locations) }

    /// The row a delete is about: the selected one when it is yours, else your newest.
    var ownRowToDelete: StudentInformation? {
        if let selected = selectedRow, viewer.mayDelete(selected) { return selected }
        return ownRows.first
    }

    /// Asks whether to delete your pin (the selected one when it is yours, else your newest).
    public func askToDeleteOwnPin() {
        guard session != nil else {
            show(toast: "Log in to delete your pin.")
            return
        }
        guard let row = ownRowToDelete else {
            show(toast: "You have no pin on the map to delete.")
            return
        }
        let others = ownRows.count - 1
        let more = others > 0 ? " Your \(others) other pin\(others == 1 ? "" : "s") stay\(others == 1 ? "s" : "")." : ""
        confirmation = Confirmation(
            act: .deletePin(objectId: row.objectId),
            question: "Delete your pin at \(Self.place(of: row)) from the map? This cannot be undone.\(more)")
    }

    /// Asks a moderator for the reason to hide the selected row, or whether to show a hidden one
    /// again. Students are told it is not theirs to do (the key is not in their footer or help).
    public func askToHideSelected() {
        guard let row = selectedRow else {
            if !viewer.isModerator { show(toast: "Only moderators hide rows.") }
            return
        }
        guard viewer.mayHide(row) else {
            show(toast: "Only moderators hide rows.")
            return
        }
        if row.hidden {
            confirmation = Confirmation(
                act: .unhide(objectId: row.objectId),
                question: "Show \(Self.subject(of: row)) to everyone again?")
        } else {
            hidePrompt = HidePrompt(objectId: row.objectId, subject: Self.subject(of: row))
        }
    }

    /// Types into the reason, up to its byte limit.
    public func typeReason(_ character: Character) {
        guard var prompt = hidePrompt, !character.isNewline else { return }
        guard prompt.reason.utf8.count + String(character).utf8.count <= HidePrompt.maximumBytes else { return }
        prompt.reason.append(character)
        prompt.problem = nil
        hidePrompt = prompt
    }

    public func deleteReasonBackward() {
        if hidePrompt?.reason.isEmpty == false { hidePrompt?.reason.removeLast() }
    }

    public func cancelHide() { hidePrompt = nil }

    /// Enter on the reason: hides the row, or says that a reason is needed.
    public func submitHide() {
        guard let prompt = hidePrompt else { return }
        let reason = prompt.reason.trimmingCharacters(in: .whitespaces)
        guard !reason.isEmpty else {
            hidePrompt?.problem = "Write why it is hidden; its owner and other moderators see the reason."
            return
        }
        hidePrompt = nil
        Task {
            do throws(APIError) {
                try await api.hideLocation(objectId: prompt.objectId, reason: reason)
                store.update(objectId: prompt.objectId) {
                    $0.hidden = true
                    $0.hiddenReason = reason
                }
                show(toast: "Hidden: \(prompt.subject).", seconds: 6)
            } catch {
                alert = "Not hidden. \(error.userMessage)"
            }
        }
    }

    /// "Yes" to the question: does what it asked about.
    public func confirm() {
        guard let asked = confirmation else { return }
        confirmation = nil
        switch asked.act {
        case .deletePin(let objectId): deleteOwnPin(objectId)
        case .unhide(let objectId): unhide(objectId)
        }
    }

    /// "No" to the question.
    public func cancelConfirmation() { confirmation = nil }

    func deleteOwnPin(_ objectId: String) {
        let place = store.locations.first { $0.objectId == objectId }.map(Self.place(of:)) ?? "your pin"
        Task {
            do throws(APIError) {
                try await api.deleteLocation(objectId: objectId)
                store.remove(objectId: objectId)
                browse.repair(in: visibleRows)
                if browse.selectedIndex(in: visibleRows) == nil { isShowingDetails = false }
                show(toast: "Deleted your pin at \(place).")
            } catch {
                alert = "Your pin was not deleted. \(error.userMessage)"
            }
        }
    }

    func unhide(_ objectId: String) {
        Task {
            do throws(APIError) {
                try await api.unhideLocation(objectId: objectId)
                store.update(objectId: objectId) {
                    $0.hidden = false
                    $0.hiddenReason = nil
                }
                show(toast: "Shown to everyone again.")
            } catch {
                alert = "Still hidden. \(error.userMessage)"
            }
        }
    }

    /// Asks the server whether this account is a moderator (its own user answer carries `role`).
    /// A failure leaves it a student: the server checks every act anyway.
    func learnRole() {
        guard let key = session?.accountKey else { return }
        Task {
            let user = try? await api.publicUser(key: key)
            if session?.accountKey == key { isModerator = user?.isModerator ?? false }
        }
    }

    /// Logged out or the session ended: no role, no question, no prompt (a "Go to" left open
    /// included, so the next login does not open on it).
    func forgetModeration() {
        isModerator = false
        confirmation = nil
        hidePrompt = nil
        goTo = nil
    }

    static func place(of row: StudentInformation) -> String {
        row.mapString.isEmpty ? String(format: "%.2f, %.2f", row.latitude, row.longitude) : row.mapString
    }

    static func subject(of row: StudentInformation) -> String {
        let name = row.fullName.isEmpty ? "a student" : row.fullName
        return "\(name)'s pin at \(place(of: row))"
    }
}
