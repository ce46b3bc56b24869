import APIClient
import ArgumentParser
import Foundation
import OnTheMapModels
import QRCode
import SafeText
import ViewModels

/// `onthemap login --facebook | --provider NAME`: a device login without the full-screen app.
/// The code, the address and its QR code go to standard error (standard output stays for the
/// result), then it waits, polling at the provider's interval, until approved, denied or expired.
/// Ctrl-C stops it. The provider's token never leaves `DeviceLoginFlow.run()`; only the server's
/// session comes back.
enum DeviceLogin {
    /// The device-login providers the server offers, by name, one a line.
    static func list(_ serverOptions: ServerOptions) async throws -> String {
        let connection = try await serverOptions.connect(silent: true)
        defer { Task { await connection.close() } }
        let offered = DeviceLoginProvider.all(in: try await connection.client.authProviders())
        return offered.isEmpty ? "This server offers no device login." : offered.map(\.name).joined(separator: "\n")
    }

    /// Runs the device login with the provider `name` (`facebook`, or an OAuth provider's name).
    /// - Returns: the server's session, the provider's display name and the account's public data.
    @MainActor
    static func run(_ serverOptions: ServerOptions, provider name: String, ascii: Bool) async throws
        -> (session: UserSession, provider: String, user: PublicUser?)
    {
        let connection = try await serverOptions.connect(silent: true)
        defer { Task { await connection.close() } }
        let client = connection.client
        let offered = DeviceLoginProvider.all(in: try await client.authProviders())
        guard let chosen = offered.first(where: { $0.name == name }) else {
            let names = offered.map(\.name).joined(separator: ", ")
            throw CommandFailure(
                "The server does not offer \(name == "facebook" ? "Facebook" : SafeText.clean(name)) login"
                    + (names.isEmpty ? "." : "; it offers: \(names)."))
        }
        let flow = DeviceLoginFlow(provider: chosen, api: client, devices: DeviceLoginClient())
        flow.onCode = { code in Self.printInstructions(code, provider: chosen.displayName, ascii: ascii) }
        guard let session = await flow.run() else {
            if case .failed(let failure) = flow.phase { throw CommandFailure(failure.message) }
            throw CommandFailure("The login was cancelled.")
        }
        return (session, chosen.displayName, try? await client.publicUser(key: session.accountKey))
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
