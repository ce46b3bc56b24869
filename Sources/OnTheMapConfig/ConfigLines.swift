/// Finds the line a key is set on, for problems TOMLKit cannot place (it keeps no positions for
/// values): the first `key =` line in the top level or under a `[table]` header. Quoted keys
/// (`"openLink" = "o"`) are found too.
struct ConfigLines {
    private let lines: [Substring]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The 1-based line of `key` in `table` (nil: the top level), or nil when not found.
    func line(of key: String, in table: String?) -> Int? {
        var current: String?
        for (index, raw) in lines.enumerated() {
            let line = raw.trimming(" \t\r")
            if line.hasPrefix("[") {
                current = String(line.dropFirst().prefix { $0 != "]" }).trimming(" \t\"")
                if table == nil && current == key { return index + 1 }
                continue
            }
            guard current == table, let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimming(" \t\"'")
            if name == key { return index + 1 }
        }
        return nil
    }
}

extension StringProtocol {
    fileprivate func trimming(_ set: String) -> String {
        let characters = Set(set)
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
