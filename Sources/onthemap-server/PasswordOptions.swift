import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How `user add` and `user reset-password` take a password: typed at a prompt with echo off, or
/// the first line of standard input with `--password-stdin` — never the command line, where `ps`
/// and the shell's history would show it. `--password` is still parsed, to refuse it with a
/// sentence that says what to do instead.
struct PasswordOptions: ParsableArguments {
    @Flag(help: "Read the password from the first line of standard input (else it is asked for at the terminal).")
    var passwordStdin = false
    @Option(help: .hidden) var password: String?

    static let refusal =
        "--password is not taken: a password on the command line shows in ps and the shell's history. Type it at the prompt, or pipe it in with --password-stdin."

    func validate() throws {
        if password != nil { throw ValidationError(Self.refusal) }
    }

    /// The password, from standard input or the terminal.
    func read(prompt: String = "Password: ") throws -> String {
        if passwordStdin {
            guard var line = readLine(strippingNewline: true) else {
                throw ValidationError("--password-stdin: nothing on standard input.")
            }
            if line.hasSuffix("\r") { line.removeLast() }
            guard !line.isEmpty else { throw ValidationError("--password-stdin: the password is empty.") }
            return line
        }
        guard isatty(STDIN_FILENO) == 1 else {
            throw ValidationError("No terminal to ask for the password: pipe it in with --password-stdin.")
        }
        FileHandle.standardError.write(Data(prompt.utf8))
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
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw ValidationError("No password given.")
        }
        return line
    }
}
