import APIClient
import ArgumentParser
import Foundation
import OnTheMapModels
import SafeText

/// `onthemap login`: logs in once and keeps the session (not the password) for later commands
/// and the app.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in and keep the session for later commands and the app.",
        discussion: """
            The password is read from the terminal without echo, or from stdin with \
            --password-stdin. Only the session id, account key, server and expiry are kept, in \
            $XDG_STATE_HOME/onthemap/session.json (mode 0600). Exit status: 0 logged in, 1 failure, \
            4 wrong email or password.
            """)

    /// How to log in. Only `password` today; the device/Facebook login (issue 12) adds a case.
    enum Provider: String, ExpressibleByArgument, CaseIterable { case password }

    @OptionGroup var serverOptions: ServerOptions
    @Option(help: "Your account's email.") var email: String
    @Flag(help: "Read the password from the first line of stdin.") var passwordStdin = false
    @Option(help: "How to log in: password.") var provider: Provider = .password
    @Flag(help: "Print the session as JSON (no session id).") var json = false

    func run() async throws {
        serverOptions.warnAboutPlainHTTP()
        let password = try passwordStdin ? PasswordReader.fromStandardInput() : PasswordReader.fromTerminal(prompt: "Password: ")
        let connection = try await serverOptions.connect()
        let session: UserSession
        do throws(APIError) {
            session = try await connection.client.logIn(email: email.trimmingCharacters(in: .whitespaces), password: password)
        } catch {
            await connection.close()
            throw ExitFailure.from(error, server: serverOptions.serverLabel)
        }
        let user = try? await connection.client.publicUser(key: session.accountKey)
        await connection.close()
        let stored = StoredSession(
            server: serverOptions.sessionServerKey, accountKey: session.accountKey, sessionID: session.sessionID,
            expiration: session.expiration, provider: provider.rawValue)
        try stored.save()
        let identity = Identity(user: user, session: stored)
        print(json ? try identity.json() : "Logged in to \(serverOptions.serverLabel) as \(identity.line).")
    }
}
