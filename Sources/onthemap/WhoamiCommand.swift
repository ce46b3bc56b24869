import APIClient
import ArgumentParser
import Foundation
import OnTheMapModels

/// `onthemap whoami`: the stored session's user, checked with the server.
struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami", abstract: "Show who the stored session belongs to (exit 3 when not logged in).")

    @OptionGroup var serverOptions: ServerOptions
    @Flag(help: "Print name, email, key, server and expiration as JSON.") var json = false

    func run() async throws {
        let stored = try serverOptions.storedSession()
        let connection = try await serverOptions.connect(resuming: stored)
        let user: Result<PublicUser, APIError>
        do throws(APIError) {
            user = .success(try await connection.client.publicUser(key: stored.accountKey))
        } catch {
            user = .failure(error)
        }
        await connection.close()
        let found = try user.mapError { ExitFailure.from($0, server: serverOptions.serverLabel) }.get()
        // On the v1 dialect the server adds the email only for the session's own account: no
        // email means it no longer knows the session (logged out elsewhere, or expired early).
        if serverOptions.effectiveDialect == .v1, found.email == nil {
            throw ExitFailure(
                .notLoggedIn, "the session for \(serverOptions.serverLabel) is no longer valid: run `onthemap login` again.")
        }
        let identity = Identity(user: found, session: stored)
        print(json ? try identity.json() : "\(identity.line)\nserver: \(serverOptions.serverLabel)\nexpires: \(identity.expiration)")
    }
}
