import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a password for `onthemap login`: from the terminal with echo turned off (termios), or
/// the first line of stdin with `--password-stdin`, as `docker login` does.
enum PasswordReader {
    /// The password typed at the terminal (prompt on stderr, echo off, restored afterwards even
    /// when reading fails). Refuses when stdin is not a terminal: a script must say
    /// `--password-stdin`, so a password is never read from a pipe by surprise.
    static func fromTerminal(prompt: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            throw ExitFailure(.failure, "no terminal to read the password from: pipe it in with --password-stdin.")
        }
        Diagnostics.note(prompt, newline: false)
        var saved = termios()
        let haveTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if haveTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ICANON)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if haveTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            Diagnostics.note("")
        }
        guard let line = readLine(strippingNewline: true) else {
            throw ExitFailure(.failure, "no password given.")
        }
        return line
    }

    /// The first line of stdin (a trailing CR or LF dropped; nothing else trimmed).
    static func fromStandardInput() throws -> String {
        guard var line = readLine(strippingNewline: true) else {
            throw ExitFailure(.failure, "--password-stdin: nothing on stdin.")
        }
        if line.hasSuffix("\r") { line.removeLast() }
        guard !line.isEmpty else { throw ExitFailure(.failure, "--password-stdin: the password is empty.") }
        return line
    }
}
