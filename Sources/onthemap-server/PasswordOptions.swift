import ArgumentParser
import Foundation

import PasswordInput

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
            guard let line = PasswordInput.firstLineOfStandardInput() else {
                throw ValidationError("--password-stdin: nothing on standard input.")
            }
            guard !line.isEmpty else { throw ValidationError("--password-stdin: the password is empty.") }
            return line
        }
        guard PasswordInput.isTerminal else {
            throw ValidationError("No terminal to ask for the password: pipe it in with --password-stdin.")
        }
        let line = PasswordInput.lineWithoutEcho(
            before: { FileHandle.standardError.write(Data(prompt.utf8)) },
            after: { FileHandle.standardError.write(Data("\n".utf8)) })
        guard let line, !line.isEmpty else { throw ValidationError("No password given.") }
        return line
    }
}
