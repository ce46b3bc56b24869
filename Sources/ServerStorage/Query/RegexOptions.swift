import Foundation

/// `$options` letters to `NSRegularExpression` options.
package enum RegexOptions {
    package static func parse(_ letters: String) -> NSRegularExpression.Options {
        var options: NSRegularExpression.Options = []
        if letters.contains("i") { options.insert(.caseInsensitive) }
        if letters.contains("m") { options.insert(.anchorsMatchLines) }
        if letters.contains("x") { options.insert(.allowCommentsAndWhitespace) }
        if letters.contains("s") { options.insert(.dotMatchesLineSeparators) }
        return options
    }
}
