import Foundation
import PasswordInput

/// Reads a password for `onthemap login`: from the terminal with echo turned off (termios), or
/// the first line of stdin with `--password-stdin`, as `docker login` does.
enum PasswordReader {
    /// The password typed at the terminal (prompt on stderr, echo off, restored afterwards even
    /// when reading fails). Refuses when stdin is not a terminal: a script must say
    /// `--password-stdin`, so a password is never read from a pipe by surprise.
    static func fromTerminal(prompt: String) throws -> String {
        guard PasswordInput.isTerminal else {
            throw ExitFailure(.failure, "no terminal to read the password from: pipe it in with --password-stdin.")
        }
        let line = PasswordInput.lineWithoutEcho(
            before: { Diagnostics.note(prompt, newline: false) }, after: { Diagnostics.note("") })
        guard let line else { throw ExitFailure(.failure, "no password given.") }
        return line
    }

    /// The first line of stdin (a trailing CR or LF dropped; nothing else trimmed).
    static func fromStandardInput() throws -> String {
        guard let line = PasswordInput.firstLineOfStandardInput() else {
            throw ExitFailure(.failure, "--password-stdin: nothing on stdin.")
        }
        guard !line.isEmpty else { throw ExitFailure(.failure, "--password-stdin: the password is empty.") }
        return line
    }
}
