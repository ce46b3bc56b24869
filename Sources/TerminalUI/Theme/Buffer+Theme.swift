extension Buffer {
    /// The style layer as `theme` shows it, for snapshot tests: one letter per cell (`a`, `b`, …
    /// in order of first use; blank for plain), then a legend line per letter (`a fg=203 bold`).
    public func themedStyleText(_ theme: Theme) -> String {
        var letters: [ThemedStyle: Character] = [:]
        var legend: [String] = []
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var lines: [String] = []
        for y in 0..<height {
            var line = ""
            for x in 0..<width {
                let themed = theme.resolve(self[x, y].style)
                if themed.words == "plain" {
                    line.append(" ")
                    continue
                }
                if letters[themed] == nil {
                    let letter = letters.count < alphabet.count ? alphabet[letters.count] : "?"
                    letters[themed] = letter
                    legend.append("\(letter) \(themed.words)")
                }
                line.append(letters[themed] ?? "?")
            }
            lines.append(line)
        }
        return (lines + ["legend:"] + legend).joined(separator: "\n")
    }
}
