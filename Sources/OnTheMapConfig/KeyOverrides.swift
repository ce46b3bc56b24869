import TerminalUI

/// The file's `[keys]` table applied to a key table with `KeyMap.rebinding`, so that dispatch,
/// the footer and the help overlay all follow. Unknown actions and key names are reported and
/// skipped; a new key that another binding of the same screen already takes is reported, since
/// it would never reach the action.
struct KeyOverrides {
    let file: ConfigFile
    private(set) var applied: [(action: Action, keys: [Key], source: SettingSource)] = []
    private(set) var problems: [ConfigProblem] = []

    init(file: ConfigFile) {
        self.file = file
    }

    mutating func apply(to table: KeyMap) -> KeyMap {
        var keys = table
        let path = file.path
        for entry in file.keyOverrides {
            let line = entry.line
            let problem = { (message: String) in ConfigProblem(path: path, line: line, message: message) }
            guard let action = Action(rawValue: entry.action) else {
                problems.append(problem("keys: unknown action \"\(entry.action)\" (the actions are listed in Docs/TerminalApp.md)"))
                continue
            }
            guard table.bindings.contains(where: { $0.action == action }) else {
                problems.append(problem("keys: \(action.rawValue) has no key to change"))
                continue
            }
            var parsed: [Key] = []
            for name in entry.keys {
                if let key = Self.key(named: name) {
                    parsed.append(key)
                } else {
                    problems.append(
                        problem("keys.\(action.rawValue): unknown key \"\(name)\" (like \"r\", \"R\", \"Ctrl-R\", \"Enter\", \"Space\", \"PgDn\")"))
                }
            }
            guard parsed.count == entry.keys.count else { continue }
            keys = keys.rebinding(action, to: parsed)
            applied.append((action, parsed, .file(path: path, line: entry.line)))
        }
        // Within one screen only the first binding of a key reaches its action (`KeyMap.action`),
        // so a key shared with another action there (or with an `Anywhere` one) is reported.
        for entry in applied {
            var reported: Set<String> = []
            for binding in keys.bindings where binding.action == entry.action {
                for key in entry.keys {
                    let others = keys.bindings.filter {
                        $0.action != entry.action && $0.keys.contains(key)
                            && ($0.context == binding.context || $0.context == .global || binding.context == .global)
                    }
                    for other in others where reported.insert("\(key.name) \(other.action)").inserted {
                        problems.append(
                            ConfigProblem(
                                path: path, line: entry.source.line,
                                message:
                                    "keys.\(entry.action.rawValue): \(key.name) is also the key of \(other.action.rawValue) (\(other.context.title)); only one of them gets it"
                            ))
                    }
                }
            }
        }
        return keys
    }

    /// A key by the name the app shows (`Key(name:)`), or a named key in any case (`enter`, `ctrl-r`).
    static func key(named name: String) -> Key? {
        if let key = Key(name: name) { return key }
        let lowered = name.lowercased()
        if lowered.hasPrefix("ctrl-"), name.count == 6 { return Key(name: "Ctrl-" + name.suffix(1).uppercased()) }
        let named = ["enter", "esc", "tab", "s-tab", "backspace", "del", "pgup", "pgdn", "home", "end", "space"]
        guard let match = named.first(where: { $0 == lowered }) else { return nil }
        let canonical = ["s-tab": "S-Tab", "pgup": "PgUp", "pgdn": "PgDn"][match] ?? match.prefix(1).uppercased() + match.dropFirst()
        return Key(name: canonical)
    }
}

extension SettingSource {
    var line: Int? {
        if case .file(_, let line) = self { return line }
        return nil
    }
}
