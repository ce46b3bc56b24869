import APIClient
import ArgumentParser
import Foundation
import OnTheMapModels
import SafeText

/// `onthemap login`: logs in once — with a password, or with Facebook or another device-login
/// provider the server offers — and keeps the session (not the password, not the provider's
/// token) for later commands and the app.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in and keep the session for later commands and the app.",
        discussion: """
            With --email the password is read from the terminal without echo, or from stdin with \
            --password-stdin. With --facebook or --provider NAME (a device login) the address, a code \
            and its QR code go to stderr; open the address on a phone or browser, enter the code, and \
            the command finishes once the provider approves. Only the session id, account key, server \
            and expiry are kept, in $XDG_STATE_HOME/onthemap/session.json (mode 0600). Exit status: 0 \
            logged in, 1 failure (also a declined or expired device login), 4 wrong email or password.
            """)

    @OptionGroup var serverOptions: ServerOptions
    @Option(help: "Your account's email (password login).") var email: String?
    @Flag(help: "Read the password from the first line of stdin.") var passwordStdin = false
    @Flag(help: "Log in with Facebook (a device login: enter a code on your phone).") var facebook = false
    @Option(help: "Log in with this provider: `password`, or a device-login provider's name (see --list-providers).")
    var provider: String?
    @Flag(help: "List the device-login providers the server offers, and stop.") var listProviders = false
    @Flag(help: "Draw the QR code with # instead of block characters.") var ascii = false
    @Flag(help: "Print the session as JSON (no session id).") var json = false

    /// The device-login provider asked for, if any.
    private var deviceProvider: String? {
        if facebook { return "facebook" }
        if let provider, provider != "password" { return provider }
        return nil
    }

    func validate() throws {
        if listProviders { return }
        if facebook, provider != nil { throw ValidationError("Give --facebook or --provider NAME, not both.") }
        if deviceProvider != nil, email != nil || passwordStdin {
            throw ValidationError("--email and --password-stdin are for password login, not a device login.")
        }
        if deviceProvider == nil, email == nil {
            throw ValidationError("Give --email (password login), --facebook, or --provider NAME.")
        }
    }

    func run() async throws {
        if listProviders {
            print(try await DeviceLogin.list(serverOptions))
            return
        }
        if let name = deviceProvider {
            let (session, providerName, user) = try await DeviceLogin.run(serverOptions, provider: name, ascii: ascii)
            try keep(session, provider: name, user: user, saying: "Logged in with \(providerName)")
        } else {
            try await passwordLogin(email: email ?? "")
        }
    }

    private func passwordLogin(email: String) async throws {
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
        try keep(session, provider: "password", user: user, saying: "Logged in to \(serverOptions.serverLabel)")
    }

    /// Stores the session for this server and says who is logged in.
    private func keep(_ session: UserSession, provider: String, user: PublicUser?, saying prefix: String) throws {
        let stored = StoredSession(
            server: serverOptions.sessionServerKey, accountKey: session.accountKey, sessionID: session.sessionID,
            expiration: session.expiration, provider: provider)
        try stored.save()
        let identity = Identity(user: user, session: stored)
        print(json ? try identity.json() : "\(prefix) as \(identity.line).")
    }
}
