/// The key table as the Markdown table in Docs/TerminalApp.md (a test keeps the two equal).
extension KeyMap {
    public func markdown() -> String {
        var lines = ["| where | keys | what |", "|---|---|---|"]
        for context in KeyContext.allCases {
            for line in helpLines([context]) {
                let keys = line.keys.split(separator: " ").map { "`\($0)`" }.joined(separator: " ")
                lines.append("| \(context.title) | \(keys) | \(line.help) |")
            }
        }
        return lines.joined(separator: "\n")
    }
}
