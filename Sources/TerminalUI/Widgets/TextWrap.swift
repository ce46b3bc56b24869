import SafeText

/// Word wrapping by display columns.
public enum TextWrap {
    /// `text` broken into lines of at most `width` columns; words longer than a line are cut.
    public static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if SafeText.width(candidate) <= width {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            current = SafeText.width(word) <= width ? word : SafeText.truncate(word, toWidth: width)
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
