import APIClient
import ArgumentParser
import Foundation
import OnTheMapModels
import QRCode
import SafeText
import ViewModels

/// `onthemap device-login --facebook | --provider NAME`: a device login without the full-screen
/// app. The code, the address and its QR code go to standard error (standard output stays for
/// the result), then it waits, polling at the provider's interval, until approved, denied or
/// expired. Ctrl-C stops it.
struct DeviceLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device-login",
        abstract: "Log in with Facebook, or another provider the server offers, from this terminal.")

    @OptionGroup var serverOptions: ServerOptions
    @Flag(help: "Log in with Facebook.") var facebook = false
    @Option(help: "Log in with this provider (its name, as `--list` shows).") var provider: String?
    @Flag(help: "List the providers the server offers, and stop.") var list = false
    @Flag(help: "Draw the QR code with # instead of block characters.") var ascii = false

    func validate() throws {
        let chosen = [facebook, provider != nil, list].filter { $0 }.count
        guard chosen == 1 else { throw ValidationError("Give exactly one of --facebook, --provider NAME or --list.") }
    }

    func run() async throws {
        try await runLogin()
    }

    @MainActor
    private func runLogin() async throws {
        let connection = try await serverOptions.connect(silent: true)
        defer { Task { await connection.close() } }
        let client = connection.client
        let offered = DeviceLoginProvider.all(in: try await client.authProviders())
        if list {
            print(offered.isEmpty ? "This server offers no device login." : offered.map(\.name).joined(separator: "\n"))
            return
        }
        let name = facebook ? "facebook" : provider ?? ""
        guard let chosen = offered.first(where: { $0.name == name }) else {
            let names = offered.map(\.name).joined(separator: ", ")
            throw Self.fail(
                "The server does not offer \(facebook ? "Facebook" : SafeText.clean(name)) login"
                    + (names.isEmpty ? "." : "; it offers: \(names)."))
        }
        let flow = DeviceLoginFlow(provider: chosen, api: client, devices: DeviceLoginClient())
        let ascii = self.ascii
        flow.onCode = { code in Self.printInstructions(code, provider: chosen.displayName, ascii: ascii) }
        guard let session = await flow.run() else {
            if case .failed(let failure) = flow.phase { throw Self.fail(failure.message) }
            throw Self.fail("The login was cancelled.")
        }
        // The provider's token is gone with the flow; only the server's session remains.
        print("Logged in with \(chosen.displayName): account \(session.accountKey).")
    }

    /// The instructions on standard error: address, code, QR code (black on white when it is a terminal).
    @MainActor
    static func printInstructions(_ code: DeviceCode, provider: String, ascii: Bool) {
        var lines = [
            "To log in with \(provider), open", "    \(SafeText.clean(code.verificationURL.absoluteString))",
            "and enter the code", "    \(code.userCode)", "",
        ]
        if let matrix = QRMatrix.encode(code.urlToOpen.absoluteString) {
            let colour = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"]?.isEmpty != false
            lines.append("Or scan this QR code with your phone:")
            lines += matrix.lines(ascii: ascii).map { colour ? "\u{1b}[30;47m" + $0 + "\u{1b}[0m" : $0 }
            lines.append("")
        }
        lines.append("Waiting for approval (the code expires in \(Int(code.expiresIn / 60)) minutes; Ctrl-C stops)…")
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
