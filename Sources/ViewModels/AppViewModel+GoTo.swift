import OnTheMapModels

/// "Go to" (`:`): a prompt over the main view whose completions come from the gazetteer and the
/// class (`GoToPrompt`). Enter chooses: a classmate is selected here, and the terminal layer moves
/// the map to what `submitGoTo()` returns (a place's view needs the map's size).
extension AppViewModel {
    /// Opens the prompt, empty.
    public func openGoTo() {
        isShowingDetails = false
        goTo = GoToPrompt(rows: store.locations)
    }

    /// Types a character into the prompt; its completions follow.
    public func typeGoTo(_ character: Character) {
        guard var prompt = goTo, !character.isNewline else { return }
        prompt.set(prompt.text + String(character))
        goTo = prompt
    }

    public func deleteGoToBackward() {
        guard var prompt = goTo, !prompt.text.isEmpty else { return }
        prompt.set(String(prompt.text.dropLast()))
        goTo = prompt
    }

    /// Up / Down through the completions.
    public func chooseGoTo(by delta: Int) { goTo?.choose(by: delta) }

    /// Esc: the prompt closes and nothing moves.
    public func cancelGoTo() { goTo = nil }

    /// Enter: closes the prompt and returns where to go, or says that nothing matched (the prompt
    /// stays). A classmate is selected, in the Map pane; a filter that hides them is cleared.
    public func submitGoTo() -> GoToCompletion? {
        guard let prompt = goTo else { return nil }
        guard let choice = prompt.choice else {
            show(toast: prompt.text.isEmpty ? "Type a place or a classmate's name." : "Nothing found by that name.")
            return nil
        }
        goTo = nil
        browse.pane = .map
        if case .classmate(let row) = choice.target {
            if !visibleRows.contains(where: { $0.objectId == row.objectId }) { editFilter { $0 = "" } }
            browse.selectedID = row.objectId
        }
        return choice
    }
}
