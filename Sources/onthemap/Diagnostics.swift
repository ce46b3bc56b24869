import ArgumentParser
import Foundation
import SafeText

/// The one place where an error or a notice becomes text on stderr, as argument-parser's
/// `MessageInfo` is for it, with one more step: every line goes through `SafeText.clean`, because
/// a message may carry a server's or a geocoder's words (an error body, a decoding error) and a
/// hostile server would otherwise write escape sequences — a clipboard write, a window title — to
/// the user's terminal. Nothing else in `onthemap` writes to stderr.
enum Diagnostics {
    /// `onthemap: message` on stderr, cleaned.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("onthemap: \(SafeText.clean(message))\n".utf8))
    }

    /// `text` on stderr as it is, cleaned: prompts and summaries meant for the person at the
    /// terminal rather than for the script reading stdout.
    static func note(_ text: String, newline: Bool = true) {
        FileHandle.standardError.write(Data((SafeText.clean(text) + (newline ? "\n" : "")).utf8))
    }

    /// Ends the process for `error`: a `CommandFailure` as one `onthemap: …` line and status 1;
    /// help, `--version` and other clean exits as argument-parser prints them (our own text, on
    /// stdout); any other error in argument-parser's words and exit code, each line cleaned.
    static func exit(with error: any Error, command: any ParsableCommand.Type) -> Never {
        if let failure = error as? CommandFailure {
            warn(failure.description)
            Foundation.exit(1)
        }
        if let failure = error as? ExitFailure {
            warn(failure.description)
            Foundation.exit(failure.status.rawValue)
        }
        let code = command.exitCode(for: error)
        if code.isSuccess { command.exit(withError: error) }
        let text = command.fullMessage(for: error)
        if !text.isEmpty {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { SafeText.clean(String($0)) }
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
        Foundation.exit(code.rawValue)
    }
}
