/// The key table: every binding of the app, as data. Dispatch, the footer, the `?` overlay and
/// the documentation's table are all read from it, so changing a binding here changes them
/// together; a configuration can change bindings with `rebinding` before the app starts.
public struct KeyMap: Sendable, Hashable {
    public var bindings: [KeyBinding]

    public init(_ bindings: [KeyBinding]) {
        self.bindings = bindings
    }

    /// The action `key` asks for in the first of `contexts` that binds it (`global` first).
    public func action(for key: Key, in contexts: [KeyContext]) -> Action? {
        for context in [.global] + contexts {
            if let binding = bindings.first(where: { $0.context == context && $0.keys.contains(key) }) {
                return binding.action
            }
        }
        return nil
    }

    /// The same table with `action` bound to `keys` instead (in `context`, or wherever it is bound).
    public func rebinding(_ action: Action, in context: KeyContext? = nil, to keys: [Key]) -> KeyMap {
        var copy = self
        for index in copy.bindings.indices
        where copy.bindings[index].action == action && (context == nil || copy.bindings[index].context == context) {
            copy.bindings[index].keys = keys
        }
        return copy
    }

    /// The footer line for `contexts`: `Tab pane  Enter open  / filter  ? help`. Neighbouring
    /// bindings with the same word share it (`← → other match`).
    public func footer(_ contexts: [KeyContext]) -> String {
        var parts: [(keys: [String], word: String)] = []
        for binding in bindings(in: contexts) {
            guard let word = binding.footer, let key = binding.keys.first else { continue }
            if parts.last?.word == word {
                parts[parts.count - 1].keys.append(key.name)
            } else {
                parts.append(([key.name], word))
            }
        }
        return parts.map { $0.keys.joined(separator: " ") + " " + $0.word }.joined(separator: "  ")
    }

    /// The `?` overlay's lines for `contexts`: all keys of each binding, neighbouring bindings
    /// with the same text on one line (`j ↓ k ↑  select next / previous`).
    public func helpLines(_ contexts: [KeyContext]) -> [(keys: String, help: String)] {
        var lines: [(keys: [String], help: String)] = []
        for binding in bindings(in: contexts) where !binding.keys.isEmpty {
            let names = binding.keys.map(\.name)
            if lines.last?.help == binding.help {
                lines[lines.count - 1].keys += names
            } else {
                lines.append((names, binding.help))
            }
        }
        return lines.map { ($0.keys.joined(separator: " "), $0.help) }
    }

    /// The bindings of `contexts` as dispatch sees them, in context order, then table order, each
    /// with only the keys that reach it: a key a more specific context binds is that context's
    /// (sign-up mode's `Enter sign up` over the login form's `Enter log in`), and a binding left
    /// with no key is left out.
    func bindings(in contexts: [KeyContext]) -> [KeyBinding] {
        var shown: [KeyBinding] = []
        var taken: Set<Key> = []
        for context in contexts {
            let own = bindings.filter { $0.context == context }
            for var binding in own {
                let keys = binding.keys.filter { !taken.contains($0) }
                if keys.isEmpty && !binding.keys.isEmpty { continue }
                binding.keys = keys
                shown.append(binding)
            }
            taken.formUnion(own.flatMap(\.keys))
        }
        return shown
    }
}
