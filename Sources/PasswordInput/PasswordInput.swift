#if canImport(Glibc)
    import Glibc
#endif

/// Reading a password without it showing: shared by `onthemap login` and `onthemap-server user
/// add|reset-password`, each of which words its own refusals.
public enum PasswordInput {
    /// Whether standard input is a terminal one can be asked at.
    public static var isTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// One line typed at the terminal with echo off (restored afterwards, also when reading
    /// fails); `before` and `after` write the prompt and the newline the user's Enter did not show.
    public static func lineWithoutEcho(before: () -> Void, after: () -> Void) -> String? {
        before()
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
            after()
        }
        return readLine(strippingNewline: true)
    }

    /// The first line of standard input, a trailing CR dropped (nothing else trimmed); `nil` when
    /// there is none.
    public static func firstLineOfStandardInput() -> String? {
        guard var line = readLine(strippingNewline: true) else { return nil }
        if line.hasSuffix("\r") { line.removeLast() }
        return line
    }
}
